/**
 * The gate every /public request passes (docs/treasury-api.md#authentication-and-scopes, §8): resolve the bearer
 * token, count the request against the caller's rate-limit window — or,
 * unauthenticated, against the larger window of its remote address — then
 * refuse a bad token or a throttled call. Rate-limit headers are put on every
 * response, errors included. The token endpoints count their own requests
 * (routes/auth), since only they know which client authenticated.
 */
import type { Context, MiddlewareHandler } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";
import { addressRateLimit } from "../config";
import type { AppEnv } from "../lib/context";
import { ApiError } from "../lib/errors";
import { resolveCaller } from "./auth";
import { countRequest } from "./rate-limit";

/** The TCP peer of the request ("unknown" when there is none, as with `app.request` in tests). */
export function clientAddress(c: Context<AppEnv>): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * Counts one request of `subject` in a fixed window of `limit` and puts the
 * rate-limit headers on the response.
 * @throws ApiError 429 throttled (with Retry-After and `extraHeaders`) when the window is full.
 */
export async function throttle(
  c: Context<AppEnv>,
  subject: string,
  window: { limit: number; windowSeconds: number },
  extraHeaders: Record<string, string> = {},
): Promise<void> {
  const { limit, windowSeconds } = window;
  const rl = await countRequest(c.get("db"), subject, limit, windowSeconds);
  c.set("responseHeaders", rl.headers);
  if (!rl.allowed) {
    const message =
      `Rate limit of ${limit} requests per ${windowSeconds} s exceeded; retry after ` +
      `${rl.headers["Retry-After"]} s`;
    throw new ApiError("throttled", message, { limit, reset: rl.resetAt }, extraHeaders);
  }
}

const TOKEN_PATH = /^(?:\/public)?\/auth\/(?:token|tenant-token)\/?$/;

export function gate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === "POST" && TOKEN_PATH.test(c.req.path)) return next();
    const { caller, error } = await resolveCaller(
      c.get("db"),
      c.req.header("authorization"),
      c.req.header("x-tenant-id"),
    );
    c.set("caller", error ? null : caller);
    const config = c.get("config");
    if (caller) await throttle(c, `client:${caller.clientId}`, config.rateLimit);
    else await throttle(c, `ip:${clientAddress(c)}`, addressRateLimit(config));
    if (error) throw error;
    await next();
  };
}
