/**
 * The idempotency middleware around a handler whose behaviour each test
 * chooses (docs/architecture.md#idempotency): replayed headers are the original ones,
 * a 5xx or unmapped error is not stored and rolls the handler's writes back,
 * a thrown 4xx rolls back and is replayed, an abandoned `in_progress` key is
 * taken over, and a key whose transaction is still running is not (even once
 * its lock time passed). One in-memory PGlite; the handler writes `meta` rows.
 * And every write operation of the real app goes through this middleware.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { Hono } from "hono";
import { and, eq, like } from "drizzle-orm";
import { resolveConfig, type AppConfig } from "../config";
import { openDatabase, type Database } from "../db/client";
import { idempotencyKeys, meta } from "../db/schema";
import type { AppEnv } from "../lib/context";
import { ApiError } from "../lib/errors";
import { apiMetrics } from "../lib/metrics";
import type { Harness } from "../test/harness";
import { canonicalJson, fingerprintOf, idempotency, pruneIdempotencyKeys } from "./idempotency";

const CLIENT = "50000000-0000-4000-8000-0000000000ff";
const OTHER_CLIENT = "50000000-0000-4000-8000-0000000000fe";
/** A lock time no request of this file writes: a claim with it belongs to someone else. */
const STOLEN = "2000-01-01T00:00:00.000Z";
type Behaviour =
  "created" | "status-503" | "throw" | "conflict-after-write" | "wait" | "peek" | "no-content" | "steal-claim";

let database: Database;
let behaviour: Behaviour = "created";
let runs = 0;
let release: () => void = () => undefined;

interface AppOptions {
  /** No caller on the context (the scope check did not run). */
  anonymous?: boolean;
  /** Wraps the database the middleware is given (to interleave another writer). */
  wrapDb?: (db: Database["db"]) => Database["db"];
}

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
/** The fingerprint of `post(app, key)`'s request. */
const THING_FINGERPRINT = fingerprintOf("POST", "/things", "", JSON.stringify({ name: "thing" }), "application/json");

/** Stores a key of this client still `in_progress`, locked until `lockedUntil`, expiring an hour from now. */
function heldKey(key: string, fingerprint: string, lockedUntil: string, expiresAt = inMs(3600_000)) {
  return database.db
    .insert(idempotencyKeys)
    .values({ clientId: CLIENT, key, fingerprint, state: "in_progress", lockedUntil, expiresAt });
}

/**
 * An app whose database runs `before` whenever the request calls `db[method]`, then the call itself: after `before`'s
 * promise settles when it returns one (a transaction may wait), at once when it returns nothing (a select must hand
 * back its query builder synchronously).
 */
function appIntercepting(
  method: "transaction" | "select",
  before: (db: typeof database.db) => PromiseLike<unknown> | void,
) {
  return appWith(
    {},
    {
      wrapDb: (db) =>
        new Proxy(db, {
          get(target, prop, receiver) {
            if (prop !== method) return Reflect.get(target, prop, receiver) as unknown;
            return (...args: unknown[]) => {
              const call = () => (target[method] as (...a: unknown[]) => unknown).apply(target, args);
              const pending = before(target);
              return pending ? Promise.resolve(pending).then(call) : call();
            };
          },
        }),
    },
  );
}

function appWith(config: Partial<AppConfig> = {}, opts: AppOptions = {}) {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    c.set("db", opts.wrapDb ? opts.wrapDb(database.db) : database.db);
    c.set("config", resolveConfig(config));
    if (!opts.anonymous)
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
      ? c.json({ error: err.code, message: err.message, details: err.details }, err.status as 409)
      : c.json({ error: "internal_error", message: err.message }, 500),
  );
  app.post("/things", idempotency(), async (c) => {
    runs++;
    const db = c.get("db");
    await db.insert(meta).values({ key: `thing-${runs}-${crypto.randomUUID()}`, value: { behaviour } });
    if (behaviour === "wait") await new Promise<void>((resolve) => (release = resolve));
    // The key row as the handler's own transaction sees it while the request runs.
    if (behaviour === "peek")
      return c.json(
        (
          await db
            .select()
            .from(idempotencyKeys)
            .where(ownKey(c.req.header("idempotency-key")))
        )[0],
        201,
      );
    if (behaviour === "no-content") return c.body(null, 204);
    if (behaviour === "steal-claim")
      await db
        .update(idempotencyKeys)
        .set({ lockedUntil: STOLEN })
        .where(ownKey(c.req.header("idempotency-key")));
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
const ownKey = (key = "", client = CLIENT) => and(eq(idempotencyKeys.clientId, client), eq(idempotencyKeys.key, key));
const keyRow = async (key: string, client = CLIENT) =>
  (await database.db.select().from(idempotencyKeys).where(ownKey(key, client)))[0];

// The middleware needs the schema only: a bare migrated database (no fixture, no app) keeps each test run short.
beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory" });
});
afterAll(() => database.close());
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
      const claim = (key: string, lockedUntil: string) => heldKey(key, THING_FINGERPRINT, lockedUntil);
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
    for (let waited = 0; runs === 0; waited += 5) {
      if (waited > 10_000) throw new Error("the handler never ran");
      await new Promise((r) => setTimeout(r, 5));
    }
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

describe("the key, the fingerprint and what is stored", () => {
  const app = appWith();
  const within = (iso: string | null | undefined, from: number, to: number, offsetMs: number) => {
    const t = new Date(iso ?? NaN).getTime();
    expect(t).toBeGreaterThanOrEqual(from + offsetMs - 1000);
    expect(t).toBeLessThanOrEqual(to + offsetMs + 1000);
  };
  const send = (a: ReturnType<typeof appWith>, key: string, headers: Record<string, string>, body: string) =>
    a.request("/things", { method: "POST", headers: { "idempotency-key": key, ...headers }, body });

  it("without a caller it is 401 and nothing runs or is stored", async () => {
    const res = await post(appWith({}, { anonymous: true }), "anon-1");
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      error: "authentication_failed",
      message: "Authorization: Bearer token is required",
    });
    expect(runs).toBe(0);
    expect(await keyRow("anon-1")).toBeUndefined();
  });

  it.each([
    ["missing", undefined, "is required"],
    ["blank", "   ", "is required"],
    ["256 characters long", "k".repeat(256), "is malformed"],
    ["with a space inside", "two words", "is malformed"],
    ["with a tab inside", "tab\tinside", "is malformed"],
    ["with a leading non-ASCII letter", "ékey", "is malformed"],
    ["with a trailing non-ASCII letter", "nøkkel", "is malformed"],
    ["non-ASCII only", "øæå", "is malformed"],
  ])("an Idempotency-Key %s is 400 naming the header; the handler does not run", async (_n, key, message) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (key !== undefined) headers["idempotency-key"] = key;
    const res = await app.request("/things", { method: "POST", headers, body: "{}" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; details: unknown };
    expect(body.details).toEqual({ errors: { "Idempotency-Key": [message] } });
    expect(body.message).toMatch(
      /^Idempotency-Key (header is required on write requests|must be 1 to 255 visible ASCII characters)$/,
    );
    expect(runs).toBe(0);
  });

  it("a key of 255 visible ASCII characters is accepted", async () => {
    const key = `${"~!".repeat(127)}z`;
    expect(key).toHaveLength(255);
    expect((await post(app, key)).status).toBe(201);
    expect(await keyRow(key)).toMatchObject({ state: "done", statusCode: 201 });
  });

  it("while the handler runs, its key row is in_progress with the request's fingerprint, a lock and 24 h expiry", async () => {
    behaviour = "peek";
    const before = Date.now();
    const res = await send(
      app,
      "peek-1",
      { "content-type": "application/json", "x-company-id": "co-1" },
      '{"b":1,"a":2}',
    );
    const after = Date.now();
    expect(res.status).toBe(201);
    const seen = (await res.json()) as Record<string, string>;
    expect(seen).toMatchObject({
      clientId: CLIENT,
      key: "peek-1",
      state: "in_progress",
      statusCode: null,
      responseBody: null,
      fingerprint: fingerprintOf("POST", "/things", "co-1", '{"a":2,"b":1}', "application/json"),
    });
    within(seen.lockedUntil, before, after, 60_000);
    within(seen.expiresAt, before, after, 24 * 3600_000);
    within(seen.createdAt, before, after, 0);
    // Once done, the lock is gone and the answer is stored (encrypted: the body is not stored as sent).
    const done = await keyRow("peek-1");
    expect(done).toMatchObject({ state: "done", statusCode: 201, lockedUntil: null });
    expect(done?.responseHeaders).toEqual({ "content-type": "application/json" });
    expect(done?.responseBody).not.toContain("peek-1");
    within(done?.expiresAt, before, after, 24 * 3600_000);
  });

  it("the lock and retention follow the configuration", async () => {
    behaviour = "peek";
    const before = Date.now();
    const res = await post(appWith({ idempotencyLockSeconds: 5, idempotencyRetentionSeconds: 600 }), "config-1");
    const after = Date.now();
    const seen = (await res.json()) as Record<string, string>;
    within(seen.lockedUntil, before, after, 5_000);
    within(seen.expiresAt, before, after, 600_000);
  });

  it("the same body with its keys in another order or other spacing is a replay", async () => {
    const first = await send(
      app,
      "order-1",
      { "content-type": "application/json" },
      '{"b":[1,{"y":2,"x":null}],"a":"s"}',
    );
    expect(first.status).toBe(201);
    const again = await app.request("/things", {
      method: "POST",
      headers: { "idempotency-key": "order-1", "content-type": "application/json" },
      body: ' { "a" : "s", "b" : [1, {"x": null, "y": 2}] } ',
    });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(runs).toBe(1);
  });

  it("the same file sent again with a new multipart boundary is a replay; another file is a mismatch", async () => {
    const form = (b: string, content: string) =>
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="s.xml"\r\n\r\n${content}\r\n--${b}--\r\n`;
    const upload = (b: string, content: string) =>
      send(app, "multipart-1", { "content-type": `multipart/form-data; boundary=${b}` }, form(b, content));
    expect((await upload("first1", "<x/>")).status).toBe(201);
    const again = await upload("second2", "<x/>");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await upload("third3", "<y/>")).status).toBe(409);
    expect(runs).toBe(1);
  });

  it.each([
    ["another body", { "content-type": "application/json" }, '{"name":"other"}'],
    ["another array order", { "content-type": "application/json" }, '{"name":["b","a"]}'],
    ["another company", { "content-type": "application/json", "x-company-id": "co-2" }, '{"name":["a","b"]}'],
  ])("the same key with %s is 409 payload_mismatch, nothing runs again", async (_n, headers, body) => {
    const key = `mismatch-${crypto.randomUUID()}`;
    expect((await send(app, key, { "content-type": "application/json" }, '{"name":["a","b"]}')).status).toBe(201);
    const res = await send(app, key, headers, body);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      error: "conflict",
      message: "The Idempotency-Key was already used with a different request",
      details: { reason: "payload_mismatch" },
    });
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect(runs).toBe(1);
    expect(await keyRow(key)).toMatchObject({ state: "done", statusCode: 201 });
  });

  it("a 204 is stored without a body and replayed as 204 with no body and no content-type", async () => {
    behaviour = "no-content";
    const first = await post(app, "empty-1");
    expect(first.status).toBe(204);
    const again = await post(app, "empty-1");
    expect(again.status).toBe(204);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("content-type")).toBeNull();
    expect(again.headers.get("location")).toBeNull();
    expect(await again.text()).toBe("");
    expect(runs).toBe(1);
    expect((await keyRow("empty-1"))?.responseHeaders).toEqual({});
  });

  it("a thrown 4xx is stored with its content-type only and without a lock", async () => {
    behaviour = "conflict-after-write";
    expect((await post(app, "conflict-2")).status).toBe(409);
    const row = await keyRow("conflict-2");
    expect(row).toMatchObject({ state: "done", statusCode: 409, lockedUntil: null });
    expect(row?.responseHeaders).toEqual({ "content-type": "application/json" });
    const again = await post(app, "conflict-2");
    expect(again.headers.get("location")).toBeNull();
    expect(again.headers.get("content-type")).toBe("application/json");
  });

  it("an expired key is taken over: the new request runs and its answer replaces the old one", async () => {
    const old = new Date(Date.now() - 25 * 3600_000).toISOString();
    await database.db.insert(idempotencyKeys).values({
      clientId: CLIENT,
      key: "expired-1",
      fingerprint: "an older request",
      state: "done",
      statusCode: 422,
      responseBody: "not read",
      responseHeaders: { location: "/old" },
      lockedUntil: null,
      createdAt: old,
      expiresAt: new Date(Date.now() - 3600_000).toISOString(),
    });
    const before = Date.now();
    const res = await post(app, "expired-1");
    expect(res.status).toBe(201);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect(runs).toBe(1);
    const row = await keyRow("expired-1");
    expect(row).toMatchObject({
      state: "done",
      statusCode: 201,
      fingerprint: fingerprintOf("POST", "/things", "", JSON.stringify({ name: "thing" }), "application/json"),
      responseHeaders: { location: "/public/things/1", "content-type": "application/vnd.thing+json; charset=utf-8" },
    });
    within(row?.createdAt, before, Date.now(), 0);
    within(row?.expiresAt, before, Date.now(), 24 * 3600_000);
  });

  it("an expired key still in progress with a live lock is taken over too", async () => {
    await heldKey("expired-2", "an older request", inMs(3600_000), inMs(-1000));
    expect((await post(app, "expired-2")).status).toBe(201);
    expect(runs).toBe(1);
  });

  it("a done key whose request failed its expiry-less lock check is replayed, not taken over", async () => {
    // state done, lock long gone, not expired: only a replay may answer.
    expect((await post(app, "done-1")).status).toBe(201);
    await database.db
      .update(idempotencyKeys)
      .set({ lockedUntil: new Date(Date.now() - 3600_000).toISOString() })
      .where(ownKey("done-1"));
    const again = await post(app, "done-1");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(runs).toBe(1);
  });

  it("keys are per client: another client's use of the same key neither blocks nor answers this one", async () => {
    const theirs = {
      clientId: OTHER_CLIENT,
      fingerprint: "their request",
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    };
    await database.db.insert(idempotencyKeys).values([
      { ...theirs, key: "shared-1", state: "done", statusCode: 200, responseBody: "x", lockedUntil: null },
      {
        ...theirs,
        key: "shared-2",
        state: "in_progress",
        lockedUntil: new Date(Date.now() - 1000).toISOString(),
      },
    ]);
    for (const key of ["shared-1", "shared-2"]) {
      const res = await post(app, key);
      expect(res.status).toBe(201);
      expect(res.headers.get("idempotent-replayed")).toBeNull();
      const again = await post(app, key);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
    }
    expect(runs).toBe(2);
    expect(await keyRow("shared-1", OTHER_CLIENT)).toMatchObject({ fingerprint: "their request", statusCode: 200 });
    expect(await keyRow("shared-2", OTHER_CLIENT)).toMatchObject({
      fingerprint: "their request",
      state: "in_progress",
    });
  });

  it("a claim taken over before its transaction starts is 409 in_progress: the handler does not run", async () => {
    // Another request takes the key over between this one's claim and its transaction (its lock value replaces ours).
    const raced = appIntercepting("transaction", (db) =>
      db.update(idempotencyKeys).set({ lockedUntil: STOLEN }).where(ownKey("raced-1")),
    );
    const res = await post(raced, "raced-1");
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      message: "A request with this Idempotency-Key is still in progress; retry shortly",
      details: { reason: "in_progress" },
    });
    expect(runs).toBe(0);
    // The key belongs to the other request: it is neither deleted nor overwritten.
    const row = await keyRow("raced-1");
    expect(row).toMatchObject({ state: "in_progress", statusCode: null });
    expect(new Date(row?.lockedUntil ?? "").toISOString()).toBe(STOLEN);
  });

  it("a key that vanishes while it is being looked at is 409 in_progress: the handler does not run", async () => {
    // The key is held (live lock), so no takeover; its holder gives it up (a 5xx) before this request reads it.
    await heldKey("vanished-1", "the holder's request", inMs(60_000));
    const vanishing = appIntercepting("select", (db) => {
      void db.delete(idempotencyKeys).where(ownKey("vanished-1")).execute();
    });
    const res = await post(vanishing, "vanished-1");
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      message: "The Idempotency-Key is being processed; retry shortly",
      details: { reason: "in_progress" },
    });
    expect(runs).toBe(0);
  });

  it("a claim lost inside its own transaction commits nothing: 500, no write, the key forgotten", async () => {
    behaviour = "steal-claim";
    const res = await post(app, "stolen-1");
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ message: "the idempotency claim was lost during its own transaction" });
    expect(await things()).toBe(0);
    expect(await keyRow("stolen-1")).toBeUndefined();
  });

  it("a live in_progress key is 409 with the in_progress message and is left as it was", async () => {
    const lockedUntil = new Date(Date.now() + 60_000).toISOString();
    await heldKey("live-2", THING_FINGERPRINT, lockedUntil);
    const res = await post(app, "live-2");
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      message: "A request with this Idempotency-Key is still in progress; retry shortly",
      details: { reason: "in_progress" },
    });
    expect(new Date((await keyRow("live-2"))?.lockedUntil ?? "").toISOString()).toBe(lockedUntil);
  });

  it("a replay is counted in treasury_api_idempotency_replays_total", async () => {
    const count = async () => (await apiMetrics().idempotencyReplays.get()).values.reduce((sum, v) => sum + v.value, 0);
    await post(app, "metric-1");
    const before = await count();
    await post(app, "metric-1");
    await post(app, "metric-1");
    expect((await count()) - before).toBe(2);
  });

  it("pruning deletes expired keys only", async () => {
    const row = (key: string, expiresAt: number) => ({
      clientId: OTHER_CLIENT,
      key,
      fingerprint: "f",
      state: "done" as const,
      expiresAt: new Date(expiresAt).toISOString(),
    });
    await database.db
      .insert(idempotencyKeys)
      .values([row("prune-old", Date.now() - 60_000), row("prune-live", Date.now() + 60_000)]);
    await pruneIdempotencyKeys(database.db);
    expect(await keyRow("prune-old", OTHER_CLIENT)).toBeUndefined();
    expect(await keyRow("prune-live", OTHER_CLIENT)).toBeDefined();
  });
});

describe("fingerprintOf and canonicalJson", () => {
  const fp = (path: string, body: string, contentType = "application/json", company = "", method = "POST") =>
    fingerprintOf(method, path, company, body, contentType);

  it("canonical JSON sorts object keys at every level and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: [3, { d: null, c: "x" }], C: true })).toBe(
      '{"C":true,"a":[3,{"c":"x","d":null}],"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson([])).toBe("[]");
    expect(canonicalJson({})).toBe("{}");
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson("s")).toBe('"s"');
  });

  it("is the SHA-256 of method, path, company and canonical body", () => {
    const want = createHash("sha256").update('POST\n/things\nco\n{"a":1,"b":2}').digest("hex");
    expect(fp("/things", '{"b":2,"a":1}', "application/json", "co")).toBe(want);
    expect(fp("/things", '{"a":1,"b":2}', "application/json", "co", "PATCH")).not.toBe(want);
  });

  it("ignores trailing slashes but keeps the root path", () => {
    expect(fp("/things/", "{}")).toBe(fp("/things", "{}"));
    expect(fp("/things//", "{}")).toBe(fp("/things", "{}"));
    expect(fp("/", "{}")).not.toBe(fp("", "{}"));
  });

  it("fingerprints malformed JSON and empty bodies as their raw text", () => {
    expect(fp("/things", "{oops")).toBe(createHash("sha256").update("POST\n/things\n\n{oops").digest("hex"));
    expect(fp("/things", "")).toBe(createHash("sha256").update("POST\n/things\n\n").digest("hex"));
    expect(fp("/things", "{oops")).not.toBe(fp("/things", "{oops2"));
  });

  it("a multipart body sent again with a new boundary is the same request; another file is not", () => {
    const part = (b: string, content: string) =>
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.xml"\r\n\r\n${content}\r\n--${b}--\r\n`;
    const one = fp("/statements", part("aaa111", "<x/>"), "multipart/form-data; boundary=aaa111");
    expect(fp("/statements", part("bbb222", "<x/>"), "multipart/form-data; boundary=bbb222")).toBe(one);
    expect(fp("/statements", part("ccc333", "<x/>"), 'Multipart/Form-Data;boundary="ccc333"')).toBe(one);
    expect(fp("/statements", part("ddd444", "<x/>"), "multipart/form-data; charset=utf-8;  boundary=ddd444")).toBe(one);
    expect(fp("/statements", part("eee555", "<y/>"), "multipart/form-data; boundary=eee555")).not.toBe(one);
    // Not multipart: the boundary-like text is kept.
    expect(fp("/statements", part("fff666", "<x/>"), "text/plain; boundary=fff666")).not.toBe(
      fp("/statements", part("ggg777", "<x/>"), "text/plain; boundary=ggg777"),
    );
    expect(fp("/statements", part("hhh888", "<x/>"), "application/x-multipart/form-data; boundary=hhh888")).not.toBe(
      fp("/statements", part("iii999", "<x/>"), "application/x-multipart/form-data; boundary=iii999"),
    );
  });
});

describe("fingerprintOf over a multipart body's bytes", () => {
  const part = (b: string, content: string | Buffer) =>
    Buffer.concat([
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.sta"\r\n\r\n`),
      typeof content === "string" ? Buffer.from(content, "utf8") : content,
      Buffer.from(`\r\n--${b}--\r\n`),
    ]);
  const fpBytes = (b: string, content: string | Buffer) =>
    fingerprintOf("POST", "/statements", "co", new Uint8Array(part(b, content)), `multipart/form-data; boundary=${b}`);

  it("is the digest the body's text gives, for a UTF-8 body, whatever the boundary", () => {
    const text = part("aaa111", ":86:Ålesund Kommune").toString("utf8");
    const want = fingerprintOf("POST", "/statements", "co", text, "multipart/form-data; boundary=aaa111");
    expect(fpBytes("aaa111", ":86:Ålesund Kommune")).toBe(want);
    expect(fpBytes("bbb222", ":86:Ålesund Kommune")).toBe(want);
  });

  it("tells apart two ISO-8859-1 files that differ only in a byte no UTF-8 decoder keeps", () => {
    // "Å" and "Ø" in ISO-8859-1 (0xC5, 0xD8): both are U+FFFD once decoded as UTF-8, so the text alone mixed them up.
    const a = fpBytes("ccc333", Buffer.from([0x3a, 0x38, 0x36, 0x3a, 0xc5, 0x6c]));
    const b = fpBytes("ddd444", Buffer.from([0x3a, 0x38, 0x36, 0x3a, 0xd8, 0x6c]));
    expect(a).not.toBe(b);
  });
});

describe("every write operation of the API goes through it", () => {
  // The real app with its fixture, loaded only for this test.
  let h: Harness;
  let IDS: (typeof import("../test/harness"))["IDS"];
  beforeAll(async () => {
    const harness = await import("../test/harness");
    IDS = harness.IDS;
    h = await harness.createHarness();
  });
  afterAll(() => h.close());

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
