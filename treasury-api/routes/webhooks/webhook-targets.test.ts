/**
 * Webhook targets through the API (docs/architecture.md#webhooks): with the
 * development setting off, create and update refuse http and loopback /
 * private / link-local / reserved targets (400 on `url`, nothing stored); a
 * name that resolves to such an address now is refused too, and one that
 * resolves to it only later is refused at connect time by the test endpoint
 * and the worker, which record the generic "target not allowed" and no
 * cause. With the setting on (demo mode, tests) loopback receivers work.
 * Host names resolve through an injected table; the only server any request
 * reaches is the loopback receiver.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createApp, type TreasuryApp } from "../../app";
import { resolveConfig, type AppConfig } from "../../config";
import * as s from "../../db/schema";
import { CLIENTS, IDS, createHarness, type Harness } from "../../test/harness";
import { runWebhooksOnce } from "../../webhooks/delivery";
import { startLoopbackReceiver, type LoopbackReceiver } from "../../webhooks/loopback-receiver";
import { enqueueEvents } from "../../webhooks/outbox";
import type { Resolver } from "../../webhooks/target-policy";

/** Host name → addresses; tests change entries to play DNS rebinding. */
const dns = new Map<string, string[]>([
  ["hooks.example.com", ["93.184.215.14"]],
  ["inside.example.com", ["10.20.30.40"]],
  ["metadata.example.com", ["169.254.169.254"]],
]);
const resolver: Resolver = async (host) => {
  const list = dns.get(host);
  if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

const strict: Partial<AppConfig> = {
  allowPrivateWebhooks: false,
  webhookResolver: resolver,
  webhookRetryScale: 0.000_001,
  webhookTimeoutMs: 2_000,
};
let h: Harness;
let rx: LoopbackReceiver;
let devApp: TreasuryApp;

beforeAll(async () => {
  [h, rx] = await Promise.all([createHarness(strict), startLoopbackReceiver()]);
  // The same database behind an app in development mode (as `npm run dev` starts it).
  devApp = createApp({
    database: h.database,
    config: { ...strict, allowPrivateWebhooks: true, rateLimit: { limit: 100_000, windowSeconds: 60 } },
  });
});
afterAll(async () => {
  await rx.close();
  await h.close();
});

type Json = Record<string, unknown>;
type Delivery = {
  status: string;
  last_status_code: number | null;
  last_error: string | null;
  attempt_log: { status_code: number | null; error: string | null }[];
};

const create = (url: string) =>
  h.call("POST", "/webhooks", { client: "fullB", idem: true, json: { url, events: ["transaction.created"] } });
const endpointCount = async () =>
  (await h.database.db.select().from(s.webhookEndpoints).where(eq(s.webhookEndpoints.clientId, CLIENTS.fullB.id)))
    .length;

async function expectUrlRefused(res: Response, pattern: RegExp): Promise<void> {
  const body = (await res.json()) as { error: string; message: string; details: { errors: Record<string, string[]> } };
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(body.error).toBe("validation_error");
  expect(Object.keys(body.details.errors)).toEqual(["url"]);
  expect(body.details.errors.url?.[0]).toMatch(pattern);
}

describe("create and update (setting off)", () => {
  it.each([
    ["loopback", "https://127.0.0.1/hook"],
    ["loopback, another spelling", "https://2130706433/hook"],
    ["IPv6 loopback", "https://[::1]:8443/hook"],
    ["IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/hook"],
    ["RFC 1918", "https://10.1.2.3/hook"],
    ["RFC 1918 172.16/12", "https://172.20.0.1/hook"],
    ["RFC 1918 192.168/16", "https://192.168.1.10/hook"],
    ["shared 100.64/10", "https://100.64.1.1/hook"],
    ["metadata address", "https://169.254.169.254/latest/meta-data/"],
    ["unique local", "https://[fd00::1]/hook"],
    ["IPv6 link-local", "https://[fe80::1]/hook"],
    ["unspecified", "https://0.0.0.0/hook"],
    ["multicast", "https://224.0.0.1/hook"],
    ["IPv6 multicast", "https://[ff02::1]/hook"],
    ["localhost", "https://localhost:3000/hook"],
  ])("%s: 400 on url, nothing stored (%s)", async (_name, url) => {
    const before = await endpointCount();
    await expectUrlRefused(await create(url), /must not (point to|name a local host)/);
    expect(await endpointCount()).toBe(before);
  });

  it("a name that resolves to a private or metadata address now is refused", async () => {
    await expectUrlRefused(await create("https://inside.example.com/hook"), /resolves to/);
    await expectUrlRefused(await create("https://metadata.example.com/hook"), /resolves to/);
  });

  it("http is refused; https on a public name is created", async () => {
    await expectUrlRefused(await create("http://hooks.example.com/hook"), /https/);
    const ok = await create("https://hooks.example.com/hook");
    expect(ok.status).toBe(201);
  });

  it("PATCH to a refused URL is 400 on url and leaves the endpoint as it was", async () => {
    const ep = (await (await create("https://hooks.example.com/patched")).json()) as { id: string; url: string };
    for (const url of ["https://192.168.0.1/x", "http://hooks.example.com/x", "https://inside.example.com/x"]) {
      await expectUrlRefused(
        await h.call("PATCH", `/webhooks/${ep.id}`, { client: "fullB", idem: true, json: { url } }),
        /./,
      );
    }
    const detail = (await (await h.call("GET", `/webhooks/${ep.id}`, { client: "fullB" })).json()) as Json;
    expect(detail.url).toBe("https://hooks.example.com/patched");
  });
});

describe("connect time (setting off)", () => {
  it(
    "a name that resolves to 127.0.0.1 after it was registered: the test endpoint says only 'target not allowed' " +
      "and nothing is sent",
    async () => {
      const port = new URL(rx.url).port;
      dns.set("rebind.example.com", ["93.184.215.14"]);
      const res = await create(`https://rebind.example.com:${port}/rebind`);
      expect(res.status).toBe(201);
      const ep = (await res.json()) as { id: string };
      dns.set("rebind.example.com", ["127.0.0.1"]);
      const test = await h.call("POST", `/webhooks/${ep.id}/test`, { client: "fullB", idem: true });
      expect(test.status).toBe(200);
      const d = (await test.json()) as Delivery;
      expect(d).toMatchObject({ status: "pending", last_status_code: null, last_error: "target not allowed" });
      expect(d.attempt_log).toEqual([expect.objectContaining({ status_code: null, error: "target not allowed" })]);
      expect(rx.received.filter((r) => r.path === "/rebind")).toHaveLength(0);
    },
  );

  it(
    "an endpoint stored before the policy (http on loopback) is refused by the test endpoint and the worker alike, " +
      "without a cause",
    async () => {
      const id = crypto.randomUUID();
      await h.database.db.insert(s.webhookEndpoints).values({
        id,
        clientId: CLIENTS.fullB.id,
        tenantId: IDS.tenant,
        url: `${rx.url}/legacy`,
        active: true,
        events: ["payment.status.updated"],
        secret: "whsec_legacy",
      });
      const test = (await (
        await h.call("POST", `/webhooks/${id}/test`, { client: "fullB", idem: true })
      ).json()) as Delivery;
      expect(test.last_error).toBe("target not allowed");
      await enqueueEvents(h.database.db, [
        { tenantId: IDS.tenant, companyId: IDS.companyA, type: "payment.status.updated", data: { marker: "legacy" } },
      ]);
      await runWebhooksOnce(h.database.db, resolveConfig(strict));
      const list = (await (
        await h.call("GET", `/webhooks/${id}/deliveries?status=pending`, { client: "fullB" })
      ).json()) as { results: Delivery[] };
      expect(list.results.length).toBe(2);
      for (const d of list.results) {
        expect(d.attempt_log.length).toBeGreaterThan(0);
        for (const a of d.attempt_log) expect(a).toMatchObject({ status_code: null, error: "target not allowed" });
      }
      expect(rx.received.filter((r) => r.path === "/legacy")).toHaveLength(0);
    },
  );
});

describe("development setting on (demo mode, tests)", () => {
  it("http to a loopback receiver is created and the signed test event arrives", async () => {
    const token = await h.token("fullB");
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const created = await devApp.request("/public/webhooks", {
      method: "POST",
      headers: { ...headers, "idempotency-key": crypto.randomUUID() },
      body: JSON.stringify({ url: `${rx.url}/dev`, events: ["transaction.created"] }),
    });
    expect(created.status).toBe(201);
    const ep = (await created.json()) as { id: string; secret: string };
    rx.secrets.set("dev", ep.secret);
    const test = await devApp.request(`/public/webhooks/${ep.id}/test`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "idempotency-key": crypto.randomUUID() },
    });
    expect(await test.json()).toMatchObject({ status: "delivered", last_status_code: 200 });
    expect(rx.received.filter((r) => r.path === "/dev").map((r) => r.validFor)).toEqual([["dev"]]);
  });
});
