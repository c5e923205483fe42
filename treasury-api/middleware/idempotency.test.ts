/**
 * The idempotency middleware around a handler whose behaviour each test
 * chooses (DESIGN.md "Idempotency"): replayed headers are the original ones,
 * a 5xx or unmapped error is not stored and rolls the handler's writes back,
 * a thrown 4xx rolls back and is replayed, an abandoned `in_progress` key is
 * taken over, and a key whose transaction is still running is not (even once
 * its lock time passed). One in-memory PGlite; the handler writes `meta` rows.
 * And every write operation of the real app goes through this middleware.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Hono } from "hono";
import { eq, like } from "drizzle-orm";
import { resolveConfig, type AppConfig } from "../config";
import type { Database } from "../db/client";
import { idempotencyKeys, meta } from "../db/schema";
import type { AppEnv } from "../lib/context";
import { ApiError } from "../lib/errors";
import { IDS, createHarness, type Harness } from "../test/harness";
import { fingerprintOf, idempotency } from "./idempotency";

const CLIENT = "50000000-0000-4000-8000-0000000000ff";
type Behaviour = "created" | "status-503" | "throw" | "conflict-after-write" | "wait";

let h: Harness;
let database: Database;
let behaviour: Behaviour = "created";
let runs = 0;
let release: () => void = () => undefined;

function appWith(config: Partial<AppConfig> = {}) {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    c.set("db", database.db);
    c.set("config", resolveConfig(config));
    c.set("caller", {
      clientId: CLIENT,
      clientName: "test",
      form: "B",
      tenantId: CLIENT,
      scopes: [],
      writeApproved: true,
      companyIds: [],
    });
    c.set("responseHeaders", {});
    await next();
  });
  app.onError((err, c) =>
    err instanceof ApiError
      ? c.json({ error: err.code, details: err.details }, err.status as 409)
      : c.json({ error: "internal_error" }, 500),
  );
  app.post("/things", idempotency(), async (c) => {
    runs++;
    const db = c.get("db");
    await db.insert(meta).values({ key: `thing-${runs}-${crypto.randomUUID()}`, value: { behaviour } });
    if (behaviour === "wait") await new Promise<void>((resolve) => (release = resolve));
    if (behaviour === "status-503") return c.json({ error: "service_unavailable" }, 503);
    if (behaviour === "throw") throw new Error("database exploded");
    if (behaviour === "conflict-after-write")
      throw new ApiError("conflict", "the thing is in the wrong state", { state: "closed" });
    return c.body(JSON.stringify({ id: runs }), 201, {
      location: `/public/things/${runs}`,
      "content-type": "application/vnd.thing+json; charset=utf-8",
      "x-other": "not kept",
    });
  });
  return app;
}

const post = (app: ReturnType<typeof appWith>, key: string, body: unknown = { name: "thing" }) =>
  app.request("/things", {
    method: "POST",
    headers: { "idempotency-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const things = async () => (await database.db.select().from(meta).where(like(meta.key, "thing-%"))).length;
const keyRow = async (key: string) =>
  (await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key)))[0];

beforeAll(async () => {
  h = await createHarness();
  database = h.database;
});
afterAll(() => h.close());
beforeEach(async () => {
  behaviour = "created";
  runs = 0;
  await database.db.delete(meta).where(like(meta.key, "thing-%"));
});

describe("idempotency middleware", () => {
  const app = appWith();

  it("a replay carries the original status, body, content-type and location, and the handler ran once", async () => {
    const first = await post(app, "headers-1");
    expect(first.status).toBe(201);
    const again = await post(app, "headers-1");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("content-type")).toBe("application/vnd.thing+json; charset=utf-8");
    expect(again.headers.get("location")).toBe("/public/things/1");
    expect(again.headers.get("x-other")).toBeNull();
    expect(await again.text()).toBe(await first.text());
    expect(runs).toBe(1);
    expect(await things()).toBe(1);
  });

  it.each([["status-503", 503] as const, ["throw", 500] as const])(
    "a %s outcome is not stored and its writes are rolled back; a retry runs again",
    async (failing, status) => {
      behaviour = failing;
      const failed = await post(app, `fail-${failing}`);
      expect(failed.status).toBe(status);
      expect(await things()).toBe(0);
      expect(await keyRow(`fail-${failing}`)).toBeUndefined();
      behaviour = "created";
      const retry = await post(app, `fail-${failing}`);
      expect(retry.status).toBe(201);
      expect(retry.headers.get("idempotent-replayed")).toBeNull();
      expect(runs).toBe(2);
      expect(await things()).toBe(1);
    },
  );

  it("a thrown 4xx undoes what the handler wrote before it threw, and is replayed without running again", async () => {
    behaviour = "conflict-after-write";
    const first = await post(app, "conflict-1");
    expect(first.status).toBe(409);
    expect(await things()).toBe(0);
    behaviour = "created";
    const again = await post(app, "conflict-1");
    expect(again.status).toBe(409);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toMatchObject({ error: "conflict", details: { state: "closed" } });
    expect(runs).toBe(1);
  });

  it(
    "an abandoned in_progress key (lock expired, nothing committed) is taken over; a live one is 409 " + "in_progress",
    async () => {
      const claim = (key: string, lockedUntil: string) =>
        database.db.insert(idempotencyKeys).values({
          clientId: CLIENT,
          key,
          fingerprint: fingerprintOf("POST", "/things", "", JSON.stringify({ name: "thing" }), "application/json"),
          state: "in_progress",
          lockedUntil,
          expiresAt: new Date(Date.now() + 3600_000).toISOString(),
        });
      await claim("stale-1", new Date(Date.now() - 1000).toISOString());
      await claim("live-1", new Date(Date.now() + 60_000).toISOString());
      const stale = await post(app, "stale-1");
      expect(stale.status).toBe(201);
      expect(stale.headers.get("idempotent-replayed")).toBeNull();
      expect(await keyRow("stale-1")).toMatchObject({ state: "done", statusCode: 201 });
      const live = await post(app, "live-1");
      expect(live.status).toBe(409);
      expect(await live.json()).toMatchObject({ details: { reason: "in_progress" } });
      expect(runs).toBe(1);
    },
  );

  it("a key whose request is still running is never taken over, even after its lock time passed", async () => {
    // Lock time 0: the claim is "stale" at once, so only the open transaction protects it.
    const impatient = appWith({ idempotencyLockSeconds: 0 });
    behaviour = "wait";
    const slow = post(impatient, "running-1");
    while (runs === 0) await new Promise((r) => setTimeout(r, 5));
    behaviour = "created";
    const retry = post(impatient, "running-1");
    await new Promise((r) => setTimeout(r, 100));
    release();
    const [a, b] = await Promise.all([slow, retry]);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(await b.text()).toBe(await a.text());
    expect(runs).toBe(1);
    expect(await things()).toBe(1);
    expect(await keyRow("running-1")).toMatchObject({ state: "done", statusCode: 201 });
  });
});

describe("every write operation of the API goes through it", () => {
  it(
    "each POST, PATCH, PUT and DELETE in the OpenAPI document (token endpoints aside) refuses a request without " +
      "Idempotency-Key",
    async () => {
      type Operation = { requestBody?: { content?: Record<string, unknown> } };
      const doc = (await (await h.app.request("/public/openapi.json")).json()) as {
        paths: Record<string, Record<string, Operation>>;
      };
      const writes = Object.entries(doc.paths).flatMap(([p, ops]) =>
        Object.entries(ops)
          .filter(([m]) => ["post", "patch", "put", "delete"].includes(m) && !p.startsWith("/auth/"))
          .map(([m, o]) => ({
            op: `${m.toUpperCase()} ${p}`,
            multipart: Boolean(o.requestBody?.content?.["multipart/form-data"]),
          })),
      );
      // 2 approvals, 1 ledger, 1 organization, 2 payments, 2 reconciliation, 4 webhooks, 1 statements.
      expect(writes.length).toBeGreaterThanOrEqual(13);
      for (const { op, multipart } of writes) {
        const [method = "", template = ""] = op.split(" ");
        // A multipart operation (statement upload) is sent an empty multipart body, every other one an empty JSON
        // object.
        const body = multipart
          ? { body: "--b--\r\n", headers: { "content-type": "multipart/form-data; boundary=b" } }
          : { json: {} };
        const res = await h.call(method, template.replace(/\{[^}]+\}/g, crypto.randomUUID()), {
          client: "fullB",
          company: IDS.companyA,
          ...body,
        });
        expect({ op, status: res.status, body: await res.json() }).toMatchObject({
          op,
          status: 400,
          body: { details: { errors: { "Idempotency-Key": ["is required"] } } },
        });
      }
    },
  );
});
