/**
 * Who may read the dashboard's `GET /metrics` (app/metrics/route.ts), and the
 * answer it gets. The rule is the treasury-api's (its own copy lives in
 * treasury-api/lib/metrics-access.ts; the services share no code):
 *
 * 1. A bearer token is allowed when `METRICS_TOKEN` is set and the token
 *    equals it (compared in constant time); any other token → 401.
 * 2. Without a token, a loopback client is allowed.
 * 3. Otherwise 401 when `METRICS_TOKEN` is set, and 404 when it is not.
 *
 * What "loopback" can mean here: a Next.js route handler does not see the TCP
 * peer. `next start` writes the peer's address into `X-Forwarded-For`, but
 * only when the client sent none, so a client that reaches the server
 * directly can forge it (and the Host header). The dashboard therefore treats
 * a request as loopback only when its Host names loopback and every address
 * in the proxy headers is loopback (a proxy that appends the real client
 * spoils a forged header), and only while `METRICS_TOKEN` is unset: once a
 * token is configured, the dashboard asks every scraper for it.
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

/** `1.2.3.4:80` → `1.2.3.4`, `[::1]:80` → `::1`; a bare IPv6 address is left alone. */
function stripPort(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) return bracketed[1] ?? "";
  return /^[^:]+:\d+$/.test(address) ? address.slice(0, address.lastIndexOf(":")) : address;
}

/** The client addresses named by `X-Forwarded-For`, `X-Real-IP` and `Forwarded: for=`, without ports. */
export function forwardedAddresses(headers: HeaderReader): string[] {
  const out: string[] = [];
  for (const part of (headers.get("x-forwarded-for") ?? "").split(",")) if (part.trim()) out.push(part.trim());
  const real = headers.get("x-real-ip")?.trim();
  if (real) out.push(real);
  for (const m of (headers.get("forwarded") ?? "").matchAll(/for\s*=\s*"?([^";,]+)"?/gi)) out.push(m[1] ?? "");
  return out.map(stripPort);
}

/**
 * Loopback as far as a route handler can tell (see the module doc): Host is
 * `localhost`, 127.x or `[::1]`, and proxy headers name at least one address,
 * all of them loopback (`next start` always sets `X-Forwarded-For`).
 */
export function looksLoopback(headers: HeaderReader): boolean {
  const host = headers.get("host") ?? "";
  const hostname = host.replace(/:\d+$/, "");
  if (hostname !== "localhost" && !isLoopbackAddress(hostname)) return false;
  const forwarded = forwardedAddresses(headers);
  return forwarded.length > 0 && forwarded.every(isLoopbackAddress);
}

/** Constant-time string equality (both sides hashed first, so their lengths leak nothing either). */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(createHash("sha256").update(given).digest(), createHash("sha256").update(expected).digest());
}

/**
 * Applies the rule in the module doc.
 * @param loopback whether the client counts as loopback
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
 */
export async function metricsResponse(headers: HeaderReader, token: string | undefined): Promise<Response> {
  const loopback = !token && looksLoopback(headers);
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
