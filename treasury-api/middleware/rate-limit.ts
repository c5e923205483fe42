/**
 * Fixed-window rate limiting per OAuth client (docs/treasury-api.md#rate-limits;
 * docs/architecture.md#rate-limits): counters live in the database so every instance shares them.
 */
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "../db/client";

export interface RateLimitResult {
  allowed: boolean;
  /** X-RateLimit-Limit / -Remaining / -Reset (Unix epoch seconds), plus Retry-After (s) when refused. */
  headers: Record<string, string>;
  limit: number;
  resetAt: number;
}

/** Counts one request of `subject` in its current window. */
export async function countRequest(
  db: Db,
  subject: string,
  limit: number,
  windowSeconds: number,
  nowMs = Date.now(),
): Promise<RateLimitResult> {
  const nowSec = Math.floor(nowMs / 1000);
  const windowStart = nowSec - (nowSec % windowSeconds);
  const reset = windowStart + windowSeconds;
  const rows = await queryRows<{ count: number }>(
    db,
    sql`
    insert into rate_limit_windows (subject, window_start, count)
    values (${subject}, to_timestamp(${windowStart}), 1)
    on conflict (subject, window_start) do update set count = rate_limit_windows.count + 1
    returning count`,
  );
  const count = Number(rows[0]?.count ?? 1);
  if (Math.random() < 0.01) {
    // Old windows are useless; prune them now and then rather than on every call.
    await db.execute(sql`delete from rate_limit_windows where window_start < now() - interval '1 hour'`);
  }
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(limit),
    "X-RateLimit-Remaining": String(Math.max(0, limit - count)),
    "X-RateLimit-Reset": String(reset),
  };
  const allowed = count <= limit;
  if (!allowed) headers["Retry-After"] = String(Math.max(1, reset - nowSec));
  return { allowed, headers, limit, resetAt: reset };
}
