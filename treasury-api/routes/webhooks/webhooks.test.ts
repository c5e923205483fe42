/**
 * Webhook endpoints and deliveries (docs/treasury-api.md#webhook-endpoints, #webhooks;
 * docs/architecture.md#webhooks): CRUD and validation for both forms, secret shown once,
 * rotation with two signatures, and real deliveries to a loopback receiver
 * that checks signatures with its own HMAC code — retries with the same event
 * id, routing by company / tenant / subscription, redirects not followed,
 * timeouts, giving up after eight attempts, the test event.
 */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as s from "../../db/schema";
import { CLIENTS, IDS, type ClientKey } from "../../test/harness";
import { webhookHarnessForFile } from "../../test/webhook-harness";
import { runWebhooksOnce } from "../../webhooks/delivery";
import type { ReceivedDelivery } from "../../webhooks/loopback-receiver";
import { enqueueEvents } from "../../webhooks/outbox";
import { verifySignature } from "../../webhooks/signing";

const { h, rx, config } = webhookHarnessForFile();

type Json = Record<string, unknown>;
type Endpoint = { id: string; url: string; active: boolean; events: string[]; secret?: string; created_at: string };
type Delivery = {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  attempt_log: { attempt: number; status_code: number | null; error: string | null }[];
};

let pathSeq = 0;
/** Registers an endpoint at a fresh receiver path and teaches the receiver its secret. */
async function register(
  client: ClientKey,
  events: string[],
  extra: Json = {},
): Promise<Endpoint & { secret: string; path: string }> {
  const path = `/hook-${++pathSeq}`;
  const res = await h.call("POST", "/webhooks", {
    client,
    idem: true,
    json: { url: `${rx.url}${path}`, events, ...extra },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const ep = (await res.json()) as Endpoint & { secret: string };
  rx.secrets.set(`${ep.id}`, ep.secret);
  return { ...ep, path };
}

/** Runs the worker until `done()` holds (or fails after `ms`). */
async function pump(done: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > until) throw new Error("webhook deliveries did not settle in time");
    await runWebhooksOnce(h.database.db, config);
    await new Promise((r) => setTimeout(r, 2));
  }
}

const at = (path: string) => rx.received.filter((d: ReceivedDelivery) => d.path === path);

async function emit(
  companyId: string | null,
  type:
    "transaction.created" | "payment.status.updated" | "reconciliation.match.created" | "reconciliation.match.updated",
  data: Json = {},
  tenantId: string = IDS.tenant,
) {
  const [id] = await enqueueEvents(h.database.db, [
    { tenantId, companyId, type, data: { marker: crypto.randomUUID(), ...data } },
  ]);
  if (!id) throw new Error("no event id");
  return id;
}

async function deliveries(client: ClientKey, endpointId: string): Promise<Delivery[]> {
  const res = await h.call("GET", `/webhooks/${endpointId}/deliveries?limit=1000`, { client });
  expect(res.status).toBe(200);
  const json = (await res.json()) as Delivery[] | { results: Delivery[] };
  return Array.isArray(json) ? json : json.results;
}

describe("endpoint CRUD", () => {
  it.each(["fullB", "partnerA"] as ClientKey[])(
    "%s: create shows the secret once; detail and list never show it",
    async (client) => {
      const ep = await register(client, ["transaction.created", "payment.status.updated"]);
      expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(ep).toMatchObject({ active: true, events: ["transaction.created", "payment.status.updated"] });
      const detail = (await (await h.call("GET", `/webhooks/${ep.id}`, { client })).json()) as Json;
      expect(detail).toEqual({ id: ep.id, url: ep.url, active: true, events: ep.events, created_at: ep.created_at });
      const listRes = await h.call("GET", "/webhooks/", { client });
      const list = (await listRes.json()) as Json[] | { results: Json[] };
      const rows = Array.isArray(list) ? list : list.results;
      expect(CLIENTS[client].form === "A" ? Array.isArray(list) : !Array.isArray(list)).toBe(true);
      expect(rows.find((r) => r.id === ep.id)).toBeDefined();
      expect(JSON.stringify(rows)).not.toContain("whsec_");
      expect(JSON.stringify(detail)).not.toContain("whsec_");
    },
  );

  it(
    "400 for bad URL, ftp://, unknown event kind, unknown field, missing events, empty PATCH, disagreeing " + "lists",
    async () => {
      const bad: Json[] = [
        { url: "not a url", events: ["transaction.created"] },
        { url: "ftp://example.com/hook", events: ["transaction.created"] },
        { url: "javascript:alert(1)", events: ["transaction.created"] },
        { url: "http://127.0.0.1/hook", events: ["transaction.deleted"] },
        { url: "http://127.0.0.1/hook", events: ["transaction.created"], secret: "mine" },
        { url: "http://127.0.0.1/hook" },
        { url: "http://127.0.0.1/hook", events: [] },
        { url: "http://127.0.0.1/hook", events: ["transaction.created"], event_types: ["payment.status.updated"] },
        { events: ["transaction.created"] },
      ];
      for (const json of bad) {
        const res = await h.call("POST", "/webhooks", { client: "fullB", idem: true, json });
        expect(res.status, JSON.stringify(json)).toBe(400);
        expect(((await res.json()) as Json).error).toBe("validation_error");
      }
      const ep = await register("fullB", ["transaction.created"]);
      for (const json of [
        {},
        { url: "ftp://x.example/h" },
        { events: ["nope"] },
        { color: "red" },
        { active: "yes" },
      ]) {
        const res = await h.call("PATCH", `/webhooks/${ep.id}`, { client: "fullB", idem: true, json });
        expect(res.status, JSON.stringify(json)).toBe(400);
      }
    },
  );

  it("event_types alone works (Form B example)", async () => {
    const res = await h.call("POST", "/webhooks", {
      client: "fullB",
      idem: true,
      json: { url: `${rx.url}/hook-et`, event_types: ["reconciliation.match.created", "reconciliation.match.created"] },
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as Endpoint).events).toEqual(["reconciliation.match.created"]);
  });

  it("PATCH updates fields; DELETE is 204 then 404; another client's endpoint is 404", async () => {
    const ep = await register("fullB", ["transaction.created"]);
    const res = await h.call("PATCH", `/webhooks/${ep.id}`, {
      client: "fullB",
      idem: true,
      json: { active: false, event_types: ["payment.status.updated"], url: `${rx.url}/moved` },
    });
    expect(res.status).toBe(200);
    const patched = (await res.json()) as Json;
    expect(patched).toMatchObject({ active: false, events: ["payment.status.updated"], url: `${rx.url}/moved` });
    expect(patched.secret).toBeUndefined();
    for (const other of ["partnerA", "otherB"] as ClientKey[]) {
      expect((await h.call("GET", `/webhooks/${ep.id}`, { client: other })).status).toBe(404);
      expect(
        (await h.call("PATCH", `/webhooks/${ep.id}`, { client: other, idem: true, json: { active: true } })).status,
      ).toBe(404);
      expect((await h.call("DELETE", `/webhooks/${ep.id}`, { client: other, idem: true })).status).toBe(404);
    }
    const del = await h.call("DELETE", `/webhooks/${ep.id}`, { client: "fullB", idem: true });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe("");
    expect((await h.call("GET", `/webhooks/${ep.id}`, { client: "fullB" })).status).toBe(404);
  });

  it("needs admin:public_api; a replayed create returns the same endpoint, not a second one", async () => {
    expect((await h.call("GET", "/webhooks", { client: "fullB", scope: "read:ledger" })).status).toBe(403);
    expect((await h.call("GET", "/webhooks", { client: "readB" })).status).toBe(403);
    const key = crypto.randomUUID();
    const json = { url: `${rx.url}/hook-idem`, events: ["transaction.created"] };
    const a = await h.call("POST", "/webhooks", { client: "fullB", idem: key, json });
    const b = await h.call("POST", "/webhooks", { client: "fullB", idem: key, json });
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(await b.json()).toEqual(await a.json());
    const rows = await h.database.db.select().from(s.webhookEndpoints).where(eq(s.webhookEndpoints.url, json.url));
    expect(rows).toHaveLength(1);
  });
});

describe("deliveries to a loopback receiver", () => {
  it("fails twice, then succeeds: three signed attempts with the same event id, all in the delivery log", async () => {
    const ep = await register("fullB", ["transaction.created"]);
    rx.respond = (d, attempt) => (d.path === ep.path && attempt <= 2 ? { status: 503 } : { status: 200 });
    const eventId = await emit(IDS.companyA, "transaction.created", { amount: "125.50" });
    await pump(() => at(ep.path).length >= 3 && deliveries("fullB", ep.id).then((d) => d[0]?.status === "delivered"));
    const got = at(ep.path);
    expect(got).toHaveLength(3);
    for (const d of got) {
      expect(d.eventId).toBe(eventId);
      expect(d.body.id).toBe(eventId);
      expect(d.body).toMatchObject({ type: "transaction.created", data: { amount: "125.50" } });
      expect(d.validFor).toEqual([ep.id]);
      expect(d.fresh).toBe(true);
      expect(verifySignature(d.signatureHeader, d.rawBody, ep.secret)).toBe(true);
    }
    const [log] = await deliveries("fullB", ep.id);
    expect(log).toMatchObject({
      event_id: eventId,
      event_type: "transaction.created",
      status: "delivered",
      attempts: 3,
      last_status_code: 200,
    });
    expect(log?.attempt_log.map((a) => a.status_code)).toEqual([503, 503, 200]);
    rx.respond = () => ({ status: 200 });
  });

  it(
    "an event goes to active endpoints subscribed to its type whose client sees its company (Form B) or tenant " +
      "(Form A)",
    async () => {
      const fullB = await register("fullB", ["payment.status.updated"]);
      const partnerA = await register("partnerA", ["payment.status.updated"]);
      const otherB = await register("otherB", ["payment.status.updated"]);
      const inactive = await register("fullB", ["payment.status.updated"], { active: false });
      const otherType = await register("fullB", ["reconciliation.match.updated"]);
      const eA = await emit(IDS.companyA, "payment.status.updated");
      const eC = await emit(IDS.companyC, "payment.status.updated");
      const eD = await emit(IDS.companyD, "payment.status.updated", {}, IDS.tenant2);
      const ids = (p: string) =>
        at(p)
          .map((d) => d.eventId)
          .sort();
      await pump(() => ids(partnerA.path).length >= 2 && ids(fullB.path).length >= 1 && ids(otherB.path).length >= 1);
      await runWebhooksOnce(h.database.db, config);
      expect(ids(fullB.path)).toEqual([eA]);
      expect(ids(partnerA.path)).toEqual([eA, eC].sort());
      expect(ids(otherB.path)).toEqual([eD]);
      expect(at(inactive.path)).toHaveLength(0);
      expect(at(otherType.path)).toHaveLength(0);
    },
  );

  it("after rotate_secret deliveries carry two v1= signatures; old and new secrets both verify", async () => {
    const ep = await register("fullB", ["reconciliation.match.created"]);
    const res = await h.call("PATCH", `/webhooks/${ep.id}`, {
      client: "fullB",
      idem: true,
      json: { rotate_secret: true },
    });
    expect(res.status).toBe(200);
    const rotated = (await res.json()) as Endpoint & { secret: string };
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(ep.secret);
    expect(JSON.stringify(await (await h.call("GET", `/webhooks/${ep.id}`, { client: "fullB" })).json())).not.toContain(
      "whsec_",
    );
    rx.secrets.set(`${ep.id}-new`, rotated.secret);
    const eventId = await emit(IDS.companyB, "reconciliation.match.created");
    await pump(() => at(ep.path).length >= 1);
    const [d] = at(ep.path);
    expect(d?.eventId).toBe(eventId);
    expect(d?.v1Count).toBe(2);
    expect(d?.validFor.sort()).toEqual([ep.id, `${ep.id}-new`].sort());
    expect(verifySignature(d?.signatureHeader, d?.rawBody ?? "", ep.secret)).toBe(true);
    expect(verifySignature(d?.signatureHeader, d?.rawBody ?? "", rotated.secret)).toBe(true);
    // Once the old secret's 24 h are over, only the new one signs.
    await h.database.db
      .update(s.webhookEndpoints)
      .set({ previousSecretExpiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(s.webhookEndpoints.id, ep.id));
    await emit(IDS.companyB, "reconciliation.match.created");
    await pump(() => at(ep.path).length >= 2);
    expect(at(ep.path)[1]?.validFor).toEqual([`${ep.id}-new`]);
  });

  it("a redirect is a failure and is never followed; a slow receiver times out", async () => {
    const ep = await register("fullB", ["reconciliation.match.updated"]);
    rx.respond = (d, attempt) => {
      if (d.path !== ep.path) return { status: 200 };
      if (attempt === 1) return { status: 302, headers: { location: `${rx.url}/redirect-target` } };
      if (attempt === 2) return { status: 200, delayMs: 2_500 };
      return { status: 204 };
    };
    // Well apart, so that a loaded machine answering the other attempts slowly does not time them out too.
    const slow = { ...config, webhookTimeoutMs: 1_000 };
    await emit(IDS.companyA, "reconciliation.match.updated");
    const until = Date.now() + 20_000;
    while ((await deliveries("fullB", ep.id))[0]?.status !== "delivered" && Date.now() < until) {
      await runWebhooksOnce(h.database.db, slow);
      await new Promise((r) => setTimeout(r, 2));
    }
    const [log] = await deliveries("fullB", ep.id);
    expect(log?.status).toBe("delivered");
    expect(log?.attempt_log.map((a) => a.status_code)).toEqual([302, null, 204]);
    expect(log?.attempt_log[0]?.error).toMatch(/redirect 302/);
    expect(log?.attempt_log[1]?.error).toMatch(/no response within 1000 ms/);
    expect(at("/redirect-target")).toHaveLength(0);
    rx.respond = () => ({ status: 200 });
  });

  it("gives up after eight attempts (first + seven retries) and marks the delivery failed", async () => {
    const ep = await register("partnerA", ["transaction.created"]);
    rx.respond = (d) => (d.path === ep.path ? { status: 500 } : { status: 200 });
    await emit(IDS.companyC, "transaction.created");
    // Eight round trips: allow for a loaded machine.
    await pump(async () => (await deliveries("partnerA", ep.id))[0]?.status === "failed", 20_000);
    const [log] = await deliveries("partnerA", ep.id);
    expect(log).toMatchObject({ status: "failed", attempts: 8, last_status_code: 500 });
    expect(log?.attempt_log.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(at(ep.path)).toHaveLength(8);
    await runWebhooksOnce(h.database.db, config);
    expect(at(ep.path)).toHaveLength(8);
    const failed = await h.call("GET", `/webhooks/${ep.id}/deliveries?status=failed`, { client: "partnerA" });
    expect(((await failed.json()) as Delivery[]).length).toBe(1);
    rx.respond = () => ({ status: 200 });
  });

  it("POST /webhooks/{id}/test sends a signed webhook.test event at once", async () => {
    const ep = await register("fullB", ["transaction.created"]);
    const res = await h.call("POST", `/webhooks/${ep.id}/test`, { client: "fullB", idem: true });
    expect(res.status).toBe(200);
    const d = (await res.json()) as Delivery;
    expect(d).toMatchObject({ event_type: "webhook.test", status: "delivered", attempts: 1, last_status_code: 200 });
    const [got] = at(ep.path);
    expect(got?.body).toMatchObject({ id: d.event_id, type: "webhook.test", data: { endpoint_id: ep.id } });
    expect(got?.validFor).toEqual([ep.id]);
    expect(
      (await h.call("POST", `/webhooks/00000000-0000-4000-8000-000000000000/test`, { client: "fullB", idem: true }))
        .status,
    ).toBe(404);
  });

  it("deleting an endpoint drops its pending deliveries: nothing more is sent", async () => {
    const ep = await register("fullB", ["transaction.created"]);
    rx.respond = (d) => (d.path === ep.path ? { status: 500 } : { status: 200 });
    await emit(IDS.companyA, "transaction.created");
    await pump(() => at(ep.path).length >= 1);
    expect((await h.call("DELETE", `/webhooks/${ep.id}`, { client: "fullB", idem: true })).status).toBe(204);
    const sent = at(ep.path).length;
    for (let i = 0; i < 5; i++) await runWebhooksOnce(h.database.db, config);
    expect(at(ep.path)).toHaveLength(sent);
    expect(
      await h.database.db.select().from(s.webhookDeliveries).where(eq(s.webhookDeliveries.endpointId, ep.id)),
    ).toHaveLength(0);
    rx.respond = () => ({ status: 200 });
  });
});
