/**
 * Rate-limit windows before and after authentication (docs/treasury-api.md#rate-limits;
 * docs/architecture.md#rate-limits), over real HTTP so the server sees real remote addresses.
 * Each test sends from its own loopback address (127.0.0.x as the socket's
 * local address) and uses its own OAuth clients, so no test shares a window
 * with another. Windows are an hour long so that none turns over mid-test.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressRateLimit, resolveConfig } from "../config";
import * as s from "../db/schema";
import { hashSecret } from "../lib/secrets";
import type { RunningServer } from "../server";
import { IDS, insertFixture } from "../test/harness";
import { startLoopbackServer } from "../test/loopback";

const CLIENT_LIMIT = 3;
const ADDRESS_LIMIT = 6;
let api: RunningServer;

beforeAll(async () => {
  api = await startLoopbackServer({
    rateLimit: { limit: CLIENT_LIMIT, windowSeconds: 3600 },
    config: { addressRateLimit: { limit: ADDRESS_LIMIT, windowSeconds: 3600 }, bankSpeed: "manual" },
  });
  await insertFixture(api.database);
});
afterAll(() => api.close());

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** One request from `from` (a 127.0.0.x address) to the running server. */
function send(
  from: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${api.url}/public${path}`,
      { method, headers, localAddress: from, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
          });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
const tokenB = (from: string, id: string, secret: string) =>
  send(
    from,
    "POST",
    "/auth/token/",
    { "content-type": "application/x-www-form-urlencoded", authorization: basic(id, secret) },
    "grant_type=client_credentials",
  );

let clientSeq = 0;
/** A fresh Form B client of tenant 1 linked to company A (its own rate-limit window). */
async function newClient(): Promise<{ id: string; clientId: string; secret: string }> {
  const c = {
    id: crypto.randomUUID(),
    clientId: `rl-client-${++clientSeq}`,
    secret: `rl-secret-${clientSeq}-${crypto.randomUUID()}`,
  };
  await api.database.db.insert(s.oauthClients).values({
    id: c.id,
    clientId: c.clientId,
    secretHash: hashSecret(c.secret),
    name: c.clientId,
    form: "B",
    tenantId: IDS.tenant,
    allowedScopes: ["read:ledger"],
    writeApproved: false,
  });
  await api.database.db.insert(s.oauthClientCompanies).values({ clientId: c.id, companyId: IDS.companyA });
  return c;
}

describe("rate limits before authentication", () => {
  it("the window of unauthenticated requests is larger than a client's by default", () => {
    const config = resolveConfig({ rateLimit: { limit: 600, windowSeconds: 60 } });
    expect(addressRateLimit(config)).toEqual({ limit: 3000, windowSeconds: 60 });
  });

  it(
    "failed token requests and bad tokens from one address fill its window, yet a correct token request from that " +
      "address still succeeds",
    async () => {
      const from = "127.0.0.11";
      const victim = await newClient();
      const statuses: number[] = [];
      for (let i = 0; i < ADDRESS_LIMIT - 2; i++)
        statuses.push((await tokenB(from, victim.clientId, "wrong-secret")).status);
      statuses.push((await send(from, "GET", "/accounts", { authorization: "Bearer not-a-token" })).status);
      statuses.push((await tokenB(from, "no-such-client", "x")).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
      const throttled = await tokenB(from, victim.clientId, "wrong-secret");
      expect(throttled.status).toBe(429);
      expect(throttled.headers["cache-control"]).toBe("no-store");
      expect(Number(throttled.headers["retry-after"])).toBeGreaterThan(0);
      expect(throttled.headers["x-ratelimit-limit"]).toBe(String(ADDRESS_LIMIT));
      expect(throttled.body).toMatchObject({ error: "throttled" });
      expect((await send(from, "GET", "/accounts", { authorization: "Bearer not-a-token" })).status).toBe(429);
      // The client whose id the failures named authenticates: it is not blocked, and it was not charged for them.
      const ok = await tokenB(from, victim.clientId, victim.secret);
      expect(ok.status).toBe(200);
      expect(ok.headers["x-ratelimit-limit"]).toBe(String(CLIENT_LIMIT));
      expect(ok.headers["x-ratelimit-remaining"]).toBe(String(CLIENT_LIMIT - 1));
      // Another address has a window of its own.
      expect((await tokenB("127.0.0.12", victim.clientId, "wrong-secret")).status).toBe(401);
    },
  );

  it(
    "token requests count against the client they authenticate as; another client from the same address is not " +
      "affected",
    async () => {
      const from = "127.0.0.21";
      const busy = await newClient();
      const other = await newClient();
      const replies: Reply[] = [];
      for (let i = 0; i < CLIENT_LIMIT + 1; i++) replies.push(await tokenB(from, busy.clientId, busy.secret));
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429]);
      expect(replies.map((r) => r.headers["x-ratelimit-remaining"])).toEqual(["2", "1", "0", "0"]);
      const throttled = replies[CLIENT_LIMIT];
      expect(throttled?.headers["cache-control"]).toBe("no-store");
      expect(Number(throttled?.headers["retry-after"])).toBeGreaterThan(0);
      expect(throttled?.body).toMatchObject({ error: "throttled" });
      expect(throttled?.body).not.toHaveProperty("access_token");
      // The same window holds the client's API calls.
      const token = replies[0]?.body.access_token as string;
      expect(
        (await send(from, "GET", "/accounts", { authorization: `Bearer ${token}`, "x-company-id": IDS.companyA }))
          .status,
      ).toBe(429);
      // Same address, other client: its own window.
      expect((await tokenB(from, other.clientId, other.secret)).status).toBe(200);
      // The address's window was not charged for any of these.
      const unauth = await send(from, "GET", "/accounts");
      expect(unauth.status).toBe(401);
      expect(unauth.headers["x-ratelimit-remaining"]).toBe(String(ADDRESS_LIMIT - 1));
    },
  );

  it(
    "Form A: a tenant token request counts against its client, not with the address's failures, and its 429 is " +
      "no-store",
    async () => {
      const from = "127.0.0.31";
      const partner = { id: crypto.randomUUID(), clientId: "rl-partner-a", secret: "rl-partner-secret" };
      await api.database.db.insert(s.oauthClients).values({
        id: partner.id,
        clientId: partner.clientId,
        secretHash: hashSecret(partner.secret),
        name: partner.clientId,
        form: "A",
        tenantId: IDS.tenant,
        allowedScopes: ["read:ledger"],
        writeApproved: false,
      });
      await api.database.db.insert(s.oauthClientTenants).values({ clientId: partner.id, tenantId: IDS.tenant });
      const body = JSON.stringify({ grant_type: "client_credentials", tenant_id: IDS.tenant });
      for (let i = 0; i < 2; i++) {
        const failed = await send(
          from,
          "POST",
          "/auth/tenant-token",
          { "content-type": "application/json", authorization: basic(partner.clientId, "wrong") },
          body,
        );
        expect(failed.status).toBe(401);
      }
      const statuses: number[] = [];
      let last: Reply | undefined;
      for (let i = 0; i < CLIENT_LIMIT + 1; i++) {
        last = await send(
          from,
          "POST",
          "/auth/tenant-token",
          { "content-type": "application/json", authorization: basic(partner.clientId, partner.secret) },
          body,
        );
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(last?.headers["x-ratelimit-limit"]).toBe(String(CLIENT_LIMIT));
      expect(last?.headers["cache-control"]).toBe("no-store");
    },
  );
});
