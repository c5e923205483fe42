/**
 * The `GET /metrics` access rule both services apply, the dashboard (lib/server/metrics-access.ts) and the
 * treasury-api (treasury-api/lib/metrics-access.ts); each decides for itself what counts as loopback
 * (docs/operations.md#metrics). In order:
 *
 * 1. A request with a bearer token is allowed when `METRICS_TOKEN` is set and the token equals it (compared in
 *    constant time); any other token → 401, even from loopback, so that a misconfigured scraper notices.
 * 2. Without a token, a loopback client is allowed.
 * 3. Otherwise 401 when `METRICS_TOKEN` is set (a token would help), and 404 when it is not (the endpoint does not
 *    exist for remote clients).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { BlockList, isIP } from "node:net";

/** The answer of the access check: allowed, or the status to refuse with. */
export type MetricsAccess = { allowed: true } | { allowed: false; status: 401 | 404 };

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms (`::ffff:127.0.0.1`); false for anything else or junk. */
export function isLoopbackAddress(address: string | null | undefined): boolean {
  const a = address?.trim().replace(/^\[(.*)\]$/, "$1") ?? "";
  const family = isIP(a);
  if (family === 0) return false;
  return LOOPBACK.check(a, family === 4 ? "ipv4" : "ipv6");
}

/** Constant-time string equality (both sides hashed first, so their lengths leak nothing either). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Applies the rule in the module doc.
 * @param loopback whether the server counts the client as local
 * @param authorization the request's `Authorization` header (null or undefined when absent)
 * @param token the configured `METRICS_TOKEN` (undefined or empty: none)
 */
export function metricsAccess(
  loopback: boolean,
  authorization: string | null | undefined,
  token?: string,
): MetricsAccess {
  const configured = token !== undefined && token !== "";
  if (authorization) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return configured && m?.[1] && sameSecret(m[1], token) ? { allowed: true } : { allowed: false, status: 401 };
  }
  if (loopback) return { allowed: true };
  return { allowed: false, status: configured ? 401 : 404 };
}

/** The plain-text answer of a refusal, not cached (a 401 asks for a bearer token with `WWW-Authenticate`). */
export function refusal(status: 401 | 404): Response {
  const headers: Record<string, string> = { "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" };
  if (status === 401) headers["WWW-Authenticate"] = 'Bearer realm="metrics"';
  return new Response(status === 401 ? "A valid metrics bearer token is required\n" : "Not found\n", {
    status,
    headers,
  });
}
