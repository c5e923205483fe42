/**
 * Who may read the treasury-api's `GET /metrics`: a loopback client, or
 * anyone presenting `Authorization: Bearer <METRICS_TOKEN>`. The dashboard
 * applies the same rule with its own copy (lib/server/metrics-access.ts): the
 * two services share no code beyond the contract.
 *
 * The rule, in order:
 * 1. A request with a bearer token is allowed when `METRICS_TOKEN` is set and
 *    the token equals it (compared in constant time); any other token → 401,
 *    even from loopback, so that a misconfigured scraper notices.
 * 2. Without a token, a loopback client is allowed.
 * 3. Otherwise 401 when `METRICS_TOKEN` is set (a token would help), and 404
 *    when it is not (the endpoint does not exist for remote clients).
 *
 * "Loopback" is decided by the caller (middleware/metrics.ts: the TCP peer,
 * and every address a proxy header names).
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

/**
 * The client addresses named by proxy headers (`X-Forwarded-For`,
 * `X-Real-IP`, `Forwarded: for=`), in order; empty when there are none.
 * Ports and brackets are stripped; `unknown` or obfuscated names stay as they
 * are (and so never count as loopback).
 */
export function forwardedAddresses(headers: { get(name: string): string | null }): string[] {
  const out: string[] = [];
  for (const part of (headers.get("x-forwarded-for") ?? "").split(",")) if (part.trim()) out.push(part.trim());
  const real = headers.get("x-real-ip")?.trim();
  if (real) out.push(real);
  for (const m of (headers.get("forwarded") ?? "").matchAll(/for\s*=\s*"?([^";,]+)"?/gi)) out.push(m[1] ?? "");
  return out.map(stripPort);
}

/** `1.2.3.4:80` → `1.2.3.4`, `[::1]:80` → `::1`; a bare IPv6 address is left alone. */
function stripPort(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) return bracketed[1] ?? "";
  return /^[^:]+:\d+$/.test(address) ? address.slice(0, address.lastIndexOf(":")) : address;
}

/** Constant-time string equality (both sides hashed first, so their lengths leak nothing either). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Applies the rule in the module doc.
 * @param loopback whether the server trusts that the client is on loopback
 * @param authorization the request's `Authorization` header (null when absent)
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

/** The body and headers of a refusal (401 asks for a bearer token). */
export function refusal(status: 401 | 404): Response {
  const headers: Record<string, string> = { "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" };
  if (status === 401) headers["WWW-Authenticate"] = 'Bearer realm="metrics"';
  return new Response(status === 401 ? "A valid metrics bearer token is required\n" : "Not found\n", {
    status,
    headers,
  });
}
