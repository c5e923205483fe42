/**
 * The gate every /public request passes (spec §5, §8): resolve the bearer
 * token, count the request against the caller's (or, unauthenticated, the
 * address's) rate-limit window, then refuse a bad token or a throttled call.
 * Rate-limit headers are put on every response, errors included.
 */
import type { Context, MiddlewareHandler } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { AppEnv } from "../lib/context";
import { ApiError } from "../lib/errors";
import { resolveCaller } from "./auth";
import { countRequest } from "./rate-limit";

function clientAddress(c: Context<AppEnv>): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

export function gate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const db = c.get("db");
    const { caller, error } = await resolveCaller(db, c.req.header("authorization"), c.req.header("x-tenant-id"));
    c.set("caller", error ? null : caller);
    const { limit, windowSeconds } = c.get("config").rateLimit;
    const subject = caller ? `client:${caller.clientId}` : `ip:${clientAddress(c)}`;
    const rl = await countRequest(db, subject, limit, windowSeconds);
    c.set("responseHeaders", rl.headers);
    if (!rl.allowed) {
      throw new ApiError("throttled", `Rate limit of ${limit} requests per ${windowSeconds} s exceeded; retry after ${rl.headers["Retry-After"]} s`, { limit, reset: rl.resetAt });
    }
    if (error) throw error;
    await next();
  };
}
