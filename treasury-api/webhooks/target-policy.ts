/**
 * Which webhook targets the API may connect to (docs/architecture.md#webhooks): `https`
 * URLs on public addresses. Refused are loopback, private (RFC 1918), shared
 * (100.64/10), link-local (169.254/16 with the cloud metadata address
 * 169.254.169.254; fe80::/10), unique-local (fc00::/7), unspecified (0/8, ::),
 * multicast and the other special-purpose ranges of the IANA registries
 * (documentation, benchmarking, reserved 240/4, NAT64 / 6to4 / Teredo, which
 * embed IPv4 addresses), IPv4-mapped IPv6 forms of all IPv4 ones
 * (`::ffff:127.0.0.1`), and the names `localhost` / `*.localhost`.
 *
 * The check runs twice: on the URL when an endpoint is created or updated
 * (`webhookUrlRefusal`, plus `resolveRefusal` for its host name), and at
 * connect time (`guardedLookup`): the host is resolved once, every address is
 * checked, and the connection uses exactly the addresses that were checked,
 * so a DNS answer that changes between check and connect (rebinding) cannot
 * reach a refused address.
 *
 * `allowPrivate` (config `allowPrivateWebhooks`, `--allow-private-webhooks`,
 * `TREASURY_API_ALLOW_PRIVATE_WEBHOOKS=1`; on in demo mode and tests) allows
 * `http` and every address, for receivers on the developer's machine.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";

/** One resolved address of a host name (as `dns.lookup` with `all: true` gives them). */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all of its addresses; the production one is `dns.lookup`. Tests inject their own. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The operating system's resolver (`getaddrinfo`, so /etc/hosts counts too). */
export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** The generic outcome recorded for a refused target: it says nothing about the target's network. */
export const TARGET_NOT_ALLOWED = "target not allowed";

/** Thrown by `guardedLookup` (and so by the connection) when the target is refused. */
export class TargetRefusedError extends Error {
  readonly code = "ETARGETREFUSED";
  constructor(readonly reason: string) {
    super(`${TARGET_NOT_ALLOWED}: ${reason}`);
  }
}

/** [network, prefix length] of every refused range; IPv4 rules match IPv4-mapped IPv6 addresses too (net.BlockList). */
const REFUSED_V4: [string, number][] = [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 included
  ["10.0.0.0", 8], // RFC 1918
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, 169.254.169.254 (cloud metadata) included
  ["172.16.0.0", 12], // RFC 1918
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // RFC 1918
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, 255.255.255.255 (broadcast) included
];
const REFUSED_V6: [string, number][] = [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["::", 96], // IPv4-compatible (deprecated)
  ["64:ff9b::", 96], // NAT64 well-known prefix: embeds an IPv4 address
  ["64:ff9b:1::", 48], // NAT64 local use
  ["100::", 64], // discard-only
  ["2001::", 23], // IETF protocol assignments (Teredo 2001::/32, benchmarking, ORCHID)
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4: embeds an IPv4 address
  ["3fff::", 20], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
];

const refused = new BlockList();
for (const [net, prefix] of REFUSED_V4) refused.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of REFUSED_V6) refused.addSubnet(net, prefix, "ipv6");

/**
 * True when `address` (an IPv4 or IPv6 literal, without brackets) is in a refused range; anything that is no IP is
 * refused.
 */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return refused.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The URL's host as an address or name: brackets of IPv6 literals and a trailing dot removed, lower case. */
function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "")
    .toLowerCase();
}

/**
 * Why `url` may not be a webhook target, judged from the URL alone; null when
 * it may (its host name is checked by `resolveRefusal` / at connect time).
 * The URL parser has already turned `2130706433`, `0x7f.1` or `127.1` into
 * `127.0.0.1`, so those are judged as the address they mean.
 */
export function webhookUrlRefusal(url: string, allowPrivate: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be an absolute URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "must use https";
  if (allowPrivate) return null;
  if (parsed.protocol !== "https:") return "must use https (http is allowed only with --allow-private-webhooks)";
  const host = hostOf(parsed);
  if (host === "localhost" || host.endsWith(".localhost")) return "must not name a local host";
  if (isIP(host) && isRefusedAddress(host))
    return "must not point to a loopback, private, link-local, multicast or reserved address";
  return null;
}

/**
 * Resolves the URL's host name (IP literals are left to `webhookUrlRefusal`)
 * and says why it is refused when any address it resolves to is in a refused
 * range; null when allowed, when `allowPrivate` is on, or when the name does
 * not resolve (now): the connect-time check still guards every delivery.
 */
export async function resolveRefusal(
  url: string,
  allowPrivate: boolean,
  resolver: Resolver,
  timeoutMs = 2_000,
): Promise<string | null> {
  if (allowPrivate) return null;
  const host = hostOf(new URL(url));
  if (isIP(host)) return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    const addresses = await Promise.race([resolver(host).catch(() => null), timeout]);
    return addresses?.some((a) => isRefusedAddress(a.address))
      ? "resolves to a loopback, private, link-local, multicast or reserved address"
      : null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A `lookup` for `net.connect` / `http.request` that resolves the host once
 * with `resolver` and refuses the connection (TargetRefusedError) when any
 * address is in a refused range, unless `allowPrivate`. The socket connects
 * only to the addresses handed to it here — the ones that were checked.
 */
export function guardedLookup(resolver: Resolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname).then(
      (all) => {
        const family =
          options.family === 4 || options.family === "IPv4"
            ? 4
            : options.family === 6 || options.family === "IPv6"
              ? 6
              : 0;
        const wanted = family ? all.filter((a) => a.family === family) : all;
        const first = wanted[0];
        if (!first)
          return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "", 4);
        if (!allowPrivate && wanted.some((a) => isRefusedAddress(a.address))) {
          return callback(new TargetRefusedError("the host resolves to a refused address"), "", 4);
        }
        if (options.all) return callback(null, wanted);
        callback(null, first.address, first.family);
      },
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), "", 4),
    );
  };
}
