/**
 * Webhook target policy (docs/architecture.md#webhooks): every refused range judged
 * by address and by URL (nothing is sent for those), host names judged by
 * what an injected resolver answers, and the transport's connect-time check
 * with the pinned address — exercised only against a server on 127.0.0.1.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  TargetRefusedError,
  guardedLookup,
  isRefusedAddress,
  resolveRefusal,
  webhookUrlRefusal,
  type ResolvedAddress,
  type Resolver,
} from "./target-policy";
import { createWebhookTransport } from "./transport";

const REFUSED: [string, string[]][] = [
  ["loopback 127/8", ["127.0.0.1", "127.1.2.3", "127.255.255.254"]],
  ["loopback ::1", ["::1"]],
  ["RFC 1918 10/8", ["10.0.0.1", "10.255.255.255"]],
  ["RFC 1918 172.16/12", ["172.16.0.1", "172.31.255.255"]],
  ["RFC 1918 192.168/16", ["192.168.0.1", "192.168.255.255"]],
  ["shared 100.64/10", ["100.64.0.1", "100.127.255.255"]],
  ["link-local 169.254/16 and the metadata address", ["169.254.0.1", "169.254.169.254", "169.254.255.255"]],
  ["unique local fc00::/7", ["fc00::1", "fd12:3456::1", "fdff:ffff::1"]],
  ["link-local fe80::/10", ["fe80::1", "febf::1"]],
  ["unspecified 0.0.0.0 and 0/8", ["0.0.0.0", "0.1.2.3"]],
  ["unspecified ::", ["::"]],
  ["multicast 224/4", ["224.0.0.1", "239.255.255.255"]],
  ["multicast ff00::/8", ["ff02::1", "ff0e::1"]],
  [
    "IPv4-mapped IPv6 of refused IPv4",
    [
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "::ffff:169.254.169.254",
      "::ffff:192.168.1.1",
      "::ffff:0.0.0.0",
    ],
  ],
  ["IPv4-compatible IPv6", ["::127.0.0.1", "::a00:1"]],
  ["NAT64 / 6to4 / Teredo (embed IPv4)", ["64:ff9b::7f00:1", "64:ff9b:1::1", "2002:7f00:1::1", "2001:0:4136:e378::1"]],
  ["reserved 240/4 and broadcast", ["240.0.0.1", "255.255.255.255"]],
  [
    "documentation and benchmarking",
    ["192.0.2.1", "198.51.100.1", "203.0.113.1", "198.18.0.1", "198.19.255.255", "2001:db8::1", "3fff::1"],
  ],
  ["IETF protocol assignments", ["192.0.0.8", "2001:2::1"]],
];
const ALLOWED = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.215.14",
  "11.0.0.1",
  "172.15.255.255",
  "172.32.0.1",
  "100.63.255.255",
  "100.128.0.1",
  "169.253.255.255",
  "223.255.255.255",
  "192.169.0.1",
  "2606:4700:4700::1111",
  "2a00:1450:4001::1",
  "::ffff:8.8.8.8",
];

describe("refused addresses (judged only; nothing is sent to them)", () => {
  it.each(REFUSED)("%s is refused", (_name, addresses) => {
    for (const a of addresses) expect(isRefusedAddress(a), a).toBe(true);
  });

  it("public unicast addresses next to the refused ranges are allowed", () => {
    for (const a of ALLOWED) expect(isRefusedAddress(a), a).toBe(false);
  });

  it("anything that is no IP address is refused", () => {
    expect(isRefusedAddress("example.com")).toBe(true);
    expect(isRefusedAddress("")).toBe(true);
  });
});

describe("webhookUrlRefusal (create / update, and again before connecting)", () => {
  const hostFor = (a: string) => (a.includes(":") ? `[${a}]` : a);
  it.each(REFUSED)("an https URL on %s is refused", (_name, addresses) => {
    for (const a of addresses)
      expect(webhookUrlRefusal(`https://${hostFor(a)}:8443/hook`, false), a).toMatch(/must not point to/);
  });

  it("spellings the URL parser turns into a refused address are refused", () => {
    for (const url of [
      "https://2130706433/",
      "https://0x7f.1/",
      "https://127.1/",
      "https://0/",
      "https://[::ffff:127.0.0.1]/",
      "https://[0:0:0:0:0:0:0:1]/",
      "https://0251.0376.0251.0376/",
    ]) {
      expect(webhookUrlRefusal(url, false), url).toMatch(/must not point to/);
    }
  });

  it("localhost names are refused", () => {
    for (const url of ["https://localhost/", "https://LOCALHOST./x", "https://api.localhost:9000/"])
      expect(webhookUrlRefusal(url, false), url).toMatch(/local host/);
  });

  it("http is refused without the development setting, allowed with it", () => {
    expect(webhookUrlRefusal("http://hooks.example.com/x", false)).toMatch(/must use https/);
    expect(webhookUrlRefusal("http://hooks.example.com/x", true)).toBeNull();
  });

  it("with the development setting loopback and private targets are allowed; other schemes never", () => {
    for (const url of ["http://127.0.0.1:3000/hook", "http://[::1]/", "https://10.0.0.5/", "http://localhost:8080/"])
      expect(webhookUrlRefusal(url, true), url).toBeNull();
    expect(webhookUrlRefusal("ftp://example.com/", true)).toMatch(/https/);
  });

  it("https on a public address or name is allowed", () => {
    for (const url of [
      "https://hooks.example.com/treasury",
      "https://93.184.215.14/x",
      "https://[2606:4700:4700::1111]:8443/",
    ])
      expect(webhookUrlRefusal(url, false), url).toBeNull();
  });
});

/** A resolver from a fixed table; counts its calls. */
function tableResolver(table: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (host: string): Promise<ResolvedAddress[]> => {
    calls.push(host);
    const list = table[host];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(fn, { calls });
}

describe("resolveRefusal (host names at create / update)", () => {
  const resolver = tableResolver({
    "inside.example.com": ["127.0.0.1"],
    "mixed.example.com": ["93.184.215.14", "10.1.2.3"],
    "hooks.example.com": ["93.184.215.14", "2606:4700::1"],
  });

  it("refuses a name when any address it resolves to is refused", async () => {
    expect(await resolveRefusal("https://inside.example.com/x", false, resolver)).toMatch(/resolves to/);
    expect(await resolveRefusal("https://mixed.example.com/x", false, resolver)).toMatch(/resolves to/);
  });

  it(
    "allows a name on public addresses, a name that does not resolve now, and anything with the development " +
      "setting",
    async () => {
      expect(await resolveRefusal("https://hooks.example.com/x", false, resolver)).toBeNull();
      expect(await resolveRefusal("https://nowhere.example.com/x", false, resolver)).toBeNull();
      expect(await resolveRefusal("https://inside.example.com/x", true, resolver)).toBeNull();
    },
  );

  it("gives up on a resolver that does not answer in time (the connect-time check still applies)", async () => {
    const never: Resolver = () => new Promise(() => undefined);
    expect(await resolveRefusal("https://slow.example.com/", false, never, 20)).toBeNull();
  });
});

/** Calls a LookupFunction and returns what it hands the socket. */
function lookupOnce(
  lookup: ReturnType<typeof guardedLookup>,
  host: string,
  all: boolean,
): Promise<{ err: NodeJS.ErrnoException | null; address: unknown }> {
  return new Promise((resolve) => lookup(host, { all }, (err, address) => resolve({ err, address })));
}

describe("guardedLookup (connect time)", () => {
  const resolver = tableResolver({
    "inside.example.com": ["127.0.0.1"],
    "mixed.example.com": ["93.184.215.14", "::ffff:10.0.0.1"],
    "hooks.example.com": ["93.184.215.14", "2606:4700::1"],
  });

  it("refuses a name that resolves to a refused address, without handing the socket any address", async () => {
    for (const host of ["inside.example.com", "mixed.example.com"]) {
      const { err, address } = await lookupOnce(guardedLookup(resolver, false), host, true);
      expect(err).toBeInstanceOf(TargetRefusedError);
      expect(address).toBe("");
    }
  });

  it("hands the socket exactly the addresses it checked", async () => {
    expect((await lookupOnce(guardedLookup(resolver, false), "hooks.example.com", true)).address).toEqual([
      { address: "93.184.215.14", family: 4 },
      { address: "2606:4700::1", family: 6 },
    ]);
    expect((await lookupOnce(guardedLookup(resolver, false), "hooks.example.com", false)).address).toBe(
      "93.184.215.14",
    );
  });

  it("with the development setting it resolves and pins without refusing", async () => {
    expect((await lookupOnce(guardedLookup(resolver, true), "inside.example.com", false)).address).toBe("127.0.0.1");
  });
});

describe("transport: connect-time refusal and the pinned address (against 127.0.0.1 only)", () => {
  let server: Server;
  let port = 0;
  let connections = 0;
  let requests = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests++;
      req.resume();
      req.on("end", () => res.end("ok"));
    });
    server.on("connection", () => connections++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it(
    "a host name that resolves to 127.0.0.1 is refused at connect time while the setting is off: no connection is " +
      "made",
    async () => {
      const resolver = tableResolver({ "rebind.example.com": ["127.0.0.1"] });
      const before = connections;
      const t = createWebhookTransport({ allowPrivateWebhooks: false, webhookResolver: resolver });
      await expect(t.post(`https://rebind.example.com:${port}/hook`, {}, "{}", 2_000)).rejects.toBeInstanceOf(
        TargetRefusedError,
      );
      expect(resolver.calls).toEqual(["rebind.example.com"]);
      expect(connections).toBe(before);
    },
  );

  it(
    "a stored URL with a refused IP literal or http is refused before connecting while the setting is " + "off",
    async () => {
      const resolver = tableResolver({ "hooks.example.com": ["93.184.215.14"] });
      const before = connections;
      const t = createWebhookTransport({ allowPrivateWebhooks: false, webhookResolver: resolver });
      await expect(t.post(`https://127.0.0.1:${port}/hook`, {}, "{}", 2_000)).rejects.toBeInstanceOf(
        TargetRefusedError,
      );
      await expect(t.post(`http://hooks.example.com:${port}/hook`, {}, "{}", 2_000)).rejects.toBeInstanceOf(
        TargetRefusedError,
      );
      expect(resolver.calls).toEqual([]);
      expect(connections).toBe(before);
    },
  );

  it(
    "the address checked is the address connected to: the name is resolved once, a later (rebound) answer is never " +
      "used",
    async () => {
      // First answer: the server's 127.0.0.1. Every later answer: 127.0.0.2, where nothing listens.
      const calls: string[] = [];
      const rebinding: Resolver = async (host) => {
        calls.push(host);
        return [{ address: calls.length === 1 ? "127.0.0.1" : "127.0.0.2", family: 4 }];
      };
      const t = createWebhookTransport({ allowPrivateWebhooks: true, webhookResolver: rebinding });
      const before = requests;
      expect(await t.post(`http://rebind.test:${port}/hook`, { "content-type": "application/json" }, "{}", 2_000)).toBe(
        200,
      );
      expect(calls).toEqual(["rebind.test"]);
      expect(requests).toBe(before + 1);
    },
  );

  it("with the development setting http to a loopback name is delivered", async () => {
    const t = createWebhookTransport({
      allowPrivateWebhooks: true,
      webhookResolver: tableResolver({ "dev.test": ["127.0.0.1"] }),
    });
    expect(await t.post(`http://dev.test:${port}/hook`, {}, "{}", 2_000)).toBe(200);
    expect(await t.post(`http://127.0.0.1:${port}/hook`, {}, "{}", 2_000)).toBe(200);
  });
});
