/**
 * Who may read the dashboard's `GET /metrics` (app/metrics/route.ts), and the
 * answer it gets. The rule is the treasury-api's, owned by the contract
 * (`@treasury/contract/metrics-access`):
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
import { isLoopbackAddress, metricsAccess, refusal } from "@treasury/contract/metrics-access";
import { metrics } from "./metrics";

export { isLoopbackAddress, metricsAccess, type MetricsAccess } from "@treasury/contract/metrics-access";

type HeaderReader = { get(name: string): string | null };

/**
 * True when the dashboard listens on loopback only: its bind address — `HOSTNAME_BIND`, else `HOSTNAME` — is
 * `localhost` or a loopback address. Unset (Next's default: every interface), a wildcard, another address or a
 * name (a container's `HOSTNAME` is its id) → false.
 */
export function listensOnLoopback(env: Record<string, string | undefined>): boolean {
  const bind = (env.HOSTNAME_BIND ?? env.HOSTNAME ?? "").trim();
  return bind.toLowerCase() === "localhost" || isLoopbackAddress(bind);
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
  if (!access.allowed) return refusal(access.status);
  const { registry } = metrics();
  return new Response(await registry.metrics(), {
    headers: { "Cache-Control": "no-store", "Content-Type": registry.contentType },
  });
}
