/**
 * Who may read the treasury-api's `GET /metrics`: a loopback client, or anyone presenting
 * `Authorization: Bearer <METRICS_TOKEN>`. The rule is the one the dashboard applies too, owned by the contract
 * (`@treasury/contract/metrics-access`, re-exported here). "Loopback" is decided by the caller
 * (middleware/metrics.ts: the TCP peer, and every address a proxy header names, from `forwardedAddresses`).
 */
export { isLoopbackAddress, metricsAccess, refusal, type MetricsAccess } from "@treasury/contract/metrics-access";

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
