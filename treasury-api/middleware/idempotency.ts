/**
 * Idempotency of write endpoints (spec §4 "Idempotency rules"; DESIGN.md
 * "Idempotency"). Keys are per OAuth client and kept 24 h. The fingerprint is
 * method, path without trailing slash, company header and canonical JSON body.
 *
 * - same key + same fingerprint: the stored status and body are replayed with
 *   `Idempotent-Replayed: true`;
 * - same key + other fingerprint: 409 conflict;
 * - same key while the first request runs: 409 conflict, details.reason = "in_progress";
 * - a 5xx outcome is not stored, so a retry runs again.
 *
 * A multipart body is fingerprinted with its boundary replaced, so that the
 * same files sent again (a new boundary each time) are the same request.
 *
 * The claim is one `INSERT … ON CONFLICT DO NOTHING` on the primary key, so a
 * burst of parallel requests with one key runs the handler exactly once.
 */
import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { and, eq, lt, or, sql } from "drizzle-orm";
import type { AppEnv } from "../lib/context";
import { ApiError } from "../lib/errors";
import { idempotencyKeys } from "../db/schema";

/** JSON with object keys sorted at every level, so key order does not change the fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function fingerprintOf(method: string, path: string, company: string, rawBody: string, contentType: string): string {
  let body = rawBody;
  const boundary = /^multipart\/form-data\b.*;\s*boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (boundary) body = rawBody.split(boundary).join("BOUNDARY");
  else if (rawBody.trim().length > 0) {
    try {
      body = canonicalJson(JSON.parse(rawBody));
    } catch {
      body = rawBody; // malformed JSON: the handler answers 400; fingerprint the raw text
    }
  }
  const normalizedPath = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return createHash("sha256").update(`${method}\n${normalizedPath}\n${company}\n${body}`).digest("hex");
}

const MAX_KEY_LENGTH = 255;

/** Middleware for every write route. Needs the caller (runs after the scope check). */
export function idempotency(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const caller = c.get("caller");
    if (!caller) throw new ApiError("authentication_failed", "Authorization: Bearer token is required");
    const key = c.req.header("idempotency-key");
    if (key === undefined || key.trim() === "") {
      throw new ApiError("validation_error", "Idempotency-Key header is required on write requests", { errors: { "Idempotency-Key": ["is required"] } });
    }
    if (key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
      throw new ApiError("validation_error", `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters`, { errors: { "Idempotency-Key": ["is malformed"] } });
    }
    const db = c.get("db");
    const config = c.get("config");
    const rawBody = await c.req.text();
    const fingerprint = fingerprintOf(c.req.method, new URL(c.req.url).pathname, c.req.header("x-company-id") ?? "", rawBody, c.req.header("content-type") ?? "");
    const now = new Date();
    const lockedUntil = new Date(now.getTime() + config.idempotencyLockSeconds * 1000).toISOString();
    const expiresAt = new Date(now.getTime() + config.idempotencyRetentionSeconds * 1000).toISOString();

    const claimed = await db
      .insert(idempotencyKeys)
      .values({ clientId: caller.clientId, key, fingerprint, state: "in_progress", lockedUntil, expiresAt, createdAt: now.toISOString() })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });

    if (claimed.length === 0) {
      // Someone holds this key. An expired key, or an abandoned in-progress one, may be taken over.
      const takeover = await db
        .update(idempotencyKeys)
        .set({ fingerprint, state: "in_progress", lockedUntil, expiresAt, statusCode: null, responseBody: null, responseHeaders: null, createdAt: now.toISOString() })
        .where(
          and(
            eq(idempotencyKeys.clientId, caller.clientId),
            eq(idempotencyKeys.key, key),
            or(lt(idempotencyKeys.expiresAt, now.toISOString()), and(eq(idempotencyKeys.state, "in_progress"), lt(idempotencyKeys.lockedUntil, now.toISOString()))),
          ),
        )
        .returning({ key: idempotencyKeys.key });
      if (takeover.length === 0) {
        const [row] = await db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.clientId, caller.clientId), eq(idempotencyKeys.key, key)));
        if (!row) throw new ApiError("conflict", "The Idempotency-Key is being processed; retry shortly", { reason: "in_progress" });
        if (row.fingerprint !== fingerprint) {
          throw new ApiError("conflict", "The Idempotency-Key was already used with a different request", { reason: "payload_mismatch" });
        }
        if (row.state === "in_progress") {
          throw new ApiError("conflict", "A request with this Idempotency-Key is still in progress; retry shortly", { reason: "in_progress" });
        }
        const headers = new Headers((row.responseHeaders as Record<string, string> | null) ?? {});
        headers.set("Idempotent-Replayed", "true");
        c.res = new Response(row.statusCode === 204 ? null : row.responseBody, { status: row.statusCode ?? 200, headers });
        return;
      }
    }

    let stored = false;
    try {
      await next();
      const res = c.res;
      if (res.status < 500) {
        const body = res.status === 204 ? "" : await res.clone().text();
        const keep: Record<string, string> = {};
        const contentType = res.headers.get("content-type");
        if (contentType) keep["content-type"] = contentType;
        const location = res.headers.get("location");
        if (location) keep.location = location;
        await db
          .update(idempotencyKeys)
          .set({ state: "done", statusCode: res.status, responseBody: body, responseHeaders: keep, lockedUntil: null })
          .where(and(eq(idempotencyKeys.clientId, caller.clientId), eq(idempotencyKeys.key, key)));
        stored = true;
      }
    } finally {
      if (!stored) {
        // 5xx or a crash in between: forget the key so that a retry runs again.
        await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.clientId, caller.clientId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.state, "in_progress")));
      }
    }
  };
}

/** Deletes expired keys (housekeeping; safe to call any time). */
export async function pruneIdempotencyKeys(db: AppEnv["Variables"]["db"]): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, sql`now()`));
}
