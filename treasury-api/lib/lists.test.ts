/**
 * Absolute pagination links (docs/treasury-api.md#list-conventions;
 * docs/architecture.md#one-service-both-forms) and the forwarding headers: ignored unless the API is told it
 * runs behind a proxy (`trustProxy`, TRUST_PROXY=1); then the proxy's host
 * and scheme replace the request's and the internal port is dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type TreasuryApp } from "../app";
import { IDS, createHarness, type Harness } from "../test/harness";

let h: Harness;
let behindProxy: TreasuryApp;
let token: string;

beforeAll(async () => {
  h = await createHarness();
  // A second app on the same database, configured as if behind a reverse proxy.
  behindProxy = createApp({
    database: h.database,
    config: { rateLimit: { limit: 100_000, windowSeconds: 60 }, trustProxy: true },
  });
  token = await h.token("fullB");
});
afterAll(() => h.close());

type Envelope = { next: string | null; previous: string | null; count: number };

/** GET /accounts one row a page, as a request to the API's internal address 127.0.0.1:4010. */
async function links(app: TreasuryApp, page: number, forwarded: Record<string, string>): Promise<Envelope> {
  const res = await app.request(`http://127.0.0.1:4010/public/accounts?page_size=1&page=${page}`, {
    headers: { authorization: `Bearer ${token}`, "x-company-id": IDS.companyA, ...forwarded },
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as Envelope;
  expect(body.count).toBeGreaterThanOrEqual(2);
  return body;
}

const attacker = { "x-forwarded-host": "attacker.example", "x-forwarded-proto": "https" };

describe("pagination links and X-Forwarded-*", () => {
  it(
    "without trustProxy the forwarding headers are ignored: next and previous keep the request's own " + "address",
    async () => {
      expect((await links(h.app, 1, attacker)).next).toBe("http://127.0.0.1:4010/public/accounts?page_size=1&page=2");
      expect((await links(h.app, 2, attacker)).previous).toBe(
        "http://127.0.0.1:4010/public/accounts?page_size=1&page=1",
      );
      expect((await links(h.app, 1, {})).next).toBe("http://127.0.0.1:4010/public/accounts?page_size=1&page=2");
    },
  );

  it("with trustProxy next and previous use the forwarded host and scheme, without the internal port", async () => {
    const proxied = { "x-forwarded-host": "api.example.com", "x-forwarded-proto": "https" };
    expect((await links(behindProxy, 1, proxied)).next).toBe(
      "https://api.example.com/public/accounts?page_size=1&page=2",
    );
    expect((await links(behindProxy, 2, proxied)).previous).toBe(
      "https://api.example.com/public/accounts?page_size=1&page=1",
    );
    // A chain of proxies: the first value is the one the client used.
    expect(
      (
        await links(behindProxy, 1, {
          "x-forwarded-host": "api.example.com, internal-lb:8080",
          "x-forwarded-proto": "https, http",
        })
      ).next,
    ).toBe("https://api.example.com/public/accounts?page_size=1&page=2");
  });

  it(
    "with trustProxy a port named by X-Forwarded-Host is kept; one header alone still drops the internal " + "port",
    async () => {
      expect(
        (await links(behindProxy, 1, { "x-forwarded-host": "api.example.com:8443", "x-forwarded-proto": "https" }))
          .next,
      ).toBe("https://api.example.com:8443/public/accounts?page_size=1&page=2");
      expect((await links(behindProxy, 1, { "x-forwarded-proto": "https" })).next).toBe(
        "https://127.0.0.1/public/accounts?page_size=1&page=2",
      );
      expect((await links(behindProxy, 1, { "x-forwarded-host": "api.example.com" })).next).toBe(
        "http://api.example.com/public/accounts?page_size=1&page=2",
      );
    },
  );

  it("with trustProxy malformed forwarding values are ignored", async () => {
    const bad: Record<string, string>[] = [
      { "x-forwarded-proto": "javascript" },
      { "x-forwarded-host": "evil.example/path" },
      { "x-forwarded-host": "user@evil.example" },
      { "x-forwarded-host": "bad host" },
    ];
    for (const headers of bad) {
      expect((await links(behindProxy, 1, headers)).next, JSON.stringify(headers)).toBe(
        "http://127.0.0.1:4010/public/accounts?page_size=1&page=2",
      );
    }
  });
});
