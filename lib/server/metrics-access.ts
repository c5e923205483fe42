/**
 * Who may read the dashboard's `GET /metrics` (app/metrics/route.ts), and the
 * answer it gets. The rule is the treasury-api's (its own copy lives in
 * treasury-api/lib/metrics-access.ts; the services share no code):
 *
 * 1. A bearer token is allowed when `METRICS_TOKEN` is set and the token
 *    equals it (compared in constant time); any other token → 401.
 * 2. Without a token, every client is allowed when the dashboard itself
 *    listens on loopback only (its bind address: `HOSTNAME_BIND`, which
 *    scripts/launch.ts passes to `next`, else `HOSTNAME`, which `next start`
 *    and the standalone server read): then nobody outside this machine can
 *    reach it at all.
 * 3. Otherwise 401 when `METRICS_TOKEN` is set, and 404 when it is not.
 *
 * Request headers never count: a Next.js route handler does not see the TCP
 * peer, and `Host` / `X-Forwarded-For` are whatever a client sends. So a
 * dashboard listening on every interface (or on an address we cannot tell is
 * loopback) serves metrics only with the token.
 */
import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { BlockList, isIP } from "node:net";
import { metrics } from "./metrics";

/** The answer of the access check: allowed, or the status to refuse with. */
export type MetricsAccess = { allowed: true } | { allowed: false; status: 401 | 404 };

type HeaderReader = { get(name: string): string | null };

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms; false for anything else, names and junk included. */
export function isLoopbackAddress(address: string | null | undefined): boolean {
  const a = address?.trim().replace(/^\[(.*)\]$/, "$1") ?? "";
  const family = isIP(a);
  return family !== 0 && LOOPBACK.check(a, family === 4 ? "ipv4" : "ipv6");
}

/**
 * True when the dashboard listens on loopback only: its bind address — `HOSTNAME_BIND`, else `HOSTNAME` — is
 * `localhost` or a loopback address. Unset (Next's default: every interface), a wildcard, another address or a
 * name (a container's `HOSTNAME` is its id) → false.
 */
export function listensOnLoopback(env: Record<string, string | undefined>): boolean {
  const bind = (env.HOSTNAME_BIND ?? env.HOSTNAME ?? "").trim();
  return bind.toLowerCase() === "localhost" || isLoopbackAddress(bind);
}

/** Constant-time string equality (both sides hashed first, so their lengths leak nothing either). */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(createHash("sha256").update(given).digest(), createHash("sha256").update(expected).digest());
}

/**
 * Applies the rule in the module doc.
 * @param loopback whether every client counts as local (the dashboard listens on loopback only)
 * @param authorization the `Authorization` header (null when absent)
 * @param token the configured `METRICS_TOKEN` (undefined: none)
 */
export function metricsAccess(
  loopback: boolean,
  authorization: string | null,
  token: string | undefined,
): MetricsAccess {
  const configured = token !== undefined && token !== "";
  if (authorization) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return configured && m?.[1] && sameSecret(m[1], token) ? { allowed: true } : { allowed: false, status: 401 };
  }
  if (loopback) return { allowed: true };
  return { allowed: false, status: configured ? 401 : 404 };
}

/**
 * The whole `GET /metrics` answer: the registry in the Prometheus text
 * format, or a plain-text 401 (with `WWW-Authenticate: Bearer`) / 404.
 * With a token configured, loopback alone is not enough (see the module doc).
 * @param headers the request's headers (only `Authorization` is read)
 * @param loopbackOnly whether the dashboard listens on loopback only (`listensOnLoopback`)
 */
export async function metricsResponse(
  headers: HeaderReader,
  token: string | undefined,
  loopbackOnly: boolean,
): Promise<Response> {
  const loopback = !token && loopbackOnly;
  const access = metricsAccess(loopback, headers.get("authorization"), token);
  const noStore = { "Cache-Control": "no-store" };
  if (!access.allowed) {
    const auth = access.status === 401 ? { "WWW-Authenticate": 'Bearer realm="metrics"' } : undefined;
    return new Response(access.status === 401 ? "A valid metrics bearer token is required\n" : "Not found\n", {
      status: access.status,
      headers: { ...noStore, ...auth, "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const { registry } = metrics();
  return new Response(await registry.metrics(), { headers: { ...noStore, "Content-Type": registry.contentType } });
}
