/**
 * `withUser` step by step, with the session, company context, audit log and configuration stubbed (the real routes
 * against the real API are in route.integration.test.ts): session (401) → role (403 naming the permission) → Origin
 * on writes → path / query / body parsing (400 naming the field) → the per-user Idempotency-Key → the company
 * sent
 * upstream → the handler → the audit entry → one answer shape with the request id.
 *
 * Then its hardening of the dashboard's own input (issue 28), under the same stubs:
 *
 * - a NUL character anywhere in the body, query or path is 400 naming the field (PostgreSQL text cannot hold it);
 * - the body size limit declared with the route (`maxBody`, a few KiB by default): 413 from Content-Length before the
 *   body is read, and 413 when a body without one streams past the limit; a route that reads the raw request (an
 *   upload) gets the same limit;
 * - a JSON write whose Content-Type is missing or not JSON is 415 naming the expected type;
 * - a body's `company_id` that is none of the known companies is 400 naming it (`knownCompany`);
 * - `X-Request-ID` is kept only when it has a safe shape (letters, digits, `-_.:`, at most 128), else replaced.
 *
 * Every refusal: the handler never runs and nothing is audited.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";

vi.mock("server-only", () => ({}));

const state = vi.hoisted(() => ({
  ctx: null as null | Record<string, unknown>,
  audit: [] as Record<string, unknown>[],
  nextauthUrl: undefined as string | undefined,
  allowedOrigins: [] as string[],
  info: [] as { obj: Record<string, unknown>; msg: string }[],
  error: [] as { obj: Record<string, unknown>; msg: string }[],
}));

vi.mock("./context", async (importOriginal) => {
  const real = await importOriginal<typeof import("./context")>();
  const { BffError } = await import("./errors");
  return {
    ...real,
    requestContext: async (opts: { ignoreCompanyCookie?: boolean }) => {
      if (!state.ctx) throw new BffError("authentication_failed", "Sign in to continue.");
      return { ...state.ctx, ignoredCookie: opts.ignoreCompanyCookie ?? false };
    },
  };
});
vi.mock("../db/audit", () => ({
  appendAudit: async (db: unknown, entry: Record<string, unknown>) => {
    expect(db).toBe("dashboard-db");
    state.audit.push(entry);
  },
}));
vi.mock("../server/db", () => ({ dashboardDb: async () => "dashboard-db" }));
vi.mock("../server/config", () => ({
  getConfig: () => ({ NEXTAUTH_URL: state.nextauthUrl, DASHBOARD_ALLOWED_ORIGINS: state.allowedOrigins }),
}));
vi.mock("../server/log", () => ({
  logger: {
    info: (obj: Record<string, unknown>, msg: string) => state.info.push({ obj, msg }),
    error: (obj: Record<string, unknown>, msg: string) => state.error.push({ obj, msg }),
  },
}));

import { NextRequest } from "next/server";
import type { Role } from "../auth/roles";
import { BffError } from "./errors";
import { derivedIdempotencyKey } from "./idempotency";
import { DEFAULT_MAX_BODY_BYTES, IdParams, SETTINGS_MAX_BODY_BYTES, withUser, type RouteContext } from "./route";

const ORIGIN = "http://dash.test:3000";
const A = { id: "20000000-0000-4000-8000-00000000000a", name: "Alpha AS", orgnr: "923609016", country: "NO" };
const B_ID = "20000000-0000-4000-8000-00000000000b";
const ID = "40000000-0000-4000-8000-000000000001";
const KEY = "60000000-0000-4000-8000-000000000001";

function signIn(roles: Role[], company: typeof A | null = A) {
  state.ctx = {
    user: { id: "user-1", email: "u@test.local", name: "U", roles, companyIds: null, disabled: false },
    companies: company ? [company] : [],
    company,
    requestId: "ctx-request-id",
  };
}

type Seg = { params: Promise<Record<string, string>> };
const seg = (params: Record<string, string> = {}): Seg => ({ params: Promise.resolve(params) });

function request(
  method: string,
  path: string,
  opts: { origin?: string | null; key?: string | null; body?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...opts.headers };
  if (method !== "GET") {
    if (opts.origin !== null) headers.origin = opts.origin ?? ORIGIN;
    if (opts.key !== null) headers["idempotency-key"] = opts.key ?? KEY;
  }
  if (opts.body !== undefined && !("content-type" in headers)) headers["content-type"] = "application/json";
  return new NextRequest(`${ORIGIN}${path}`, { method, headers, body: opts.body });
}

/** A handler that records the context it was given and answers `answer`. */
function recorder(answer: unknown = { ok: true }) {
  const seen: RouteContext<unknown, unknown, unknown>[] = [];
  const handler = vi.fn(async (ctx: RouteContext<unknown, unknown, unknown>) => {
    seen.push(ctx);
    return typeof answer === "function" ? (answer as (c: typeof ctx) => unknown)(ctx) : answer;
  });
  return { seen, handler };
}

beforeEach(() => {
  state.ctx = null;
  state.audit = [];
  state.nextauthUrl = ORIGIN;
  state.allowedOrigins = [];
  state.info = [];
  state.error = [];
  signIn(["treasurer"]);
});

describe("withUser: who may call", () => {
  it("no session: 401 in the one error shape, with the request id and no-store; the handler never runs", async () => {
    state.ctx = null;
    const { handler } = recorder();
    const res = await withUser({ permission: "ledger.read" }, handler)(
      request("GET", "/api/x", { headers: { "x-request-id": "req-401" } }),
      seg(),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get("x-request-id")).toBe("req-401");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({
      error: "authentication_failed",
      message: "Sign in to continue.",
      details: {},
      request_id: "req-401",
    });
    expect(handler).not.toHaveBeenCalled();
    expect(state.info).toEqual([
      {
        obj: expect.objectContaining({ requestId: "req-401", method: "GET", path: "/api/x", status: 401 }),
        msg: "bff request",
      },
    ]);
  });

  it("a role without the permission is 403 naming it; a role with it gets through", async () => {
    signIn(["viewer"]);
    const { handler } = recorder();
    const refused = await withUser({ permission: "payments.write", company: "none" }, handler)(
      request("POST", "/api/x"),
      seg(),
    );
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: "permission_denied",
      message: "Your role does not allow this.",
      details: { permission: "payments.write" },
    });
    expect(handler).not.toHaveBeenCalled();
    signIn(["treasurer"]);
    expect((await withUser({ permission: "payments.write" }, handler)(request("POST", "/api/x"), seg())).status).toBe(
      200,
    );
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it(
    "writes need NEXTAUTH_URL's origin or a listed one, never one named by Host / X-Forwarded-*; reads do " + "not",
    async () => {
      const { handler } = recorder();
      const route = withUser({ permission: "payments.write" }, handler);
      for (const origin of [null, "http://evil.test", "http://dash.test:3001", "https://dash.test:3000"]) {
        const res = await route(request("POST", "/api/x", { origin }), seg());
        expect(res.status, String(origin)).toBe(403);
        expect(await res.json()).toMatchObject({
          error: "permission_denied",
          message: "Cross-origin request refused.",
        });
      }
      // Headers a client or a misconfigured proxy controls do not make another origin the dashboard's own.
      const proxied = request("POST", "/api/x", {
        origin: "https://dash.example",
        headers: { "x-forwarded-host": "dash.example", "x-forwarded-proto": "https" },
      });
      expect((await route(proxied, seg())).status).toBe(403);
      const hostHeader = request("POST", "/api/x", { origin: "http://proxy.test", headers: { host: "proxy.test" } });
      expect((await route(hostHeader, seg())).status).toBe(403);
      expect(handler).not.toHaveBeenCalled();
      expect((await route(request("POST", "/api/x"), seg())).status).toBe(200);
      state.nextauthUrl = "https://public.example/some/path";
      expect((await route(request("POST", "/api/x", { origin: "https://public.example" }), seg())).status).toBe(200);
      expect((await route(request("POST", "/api/x"), seg())).status).toBe(403);
      state.allowedOrigins = [ORIGIN];
      expect((await route(request("POST", "/api/x"), seg())).status).toBe(200);
      // Nothing configured: every write is refused.
      state.nextauthUrl = undefined;
      state.allowedOrigins = [];
      expect((await route(request("POST", "/api/x", { origin: ORIGIN }), seg())).status).toBe(403);
      const read = withUser({ permission: "ledger.read" }, handler);
      expect((await read(request("GET", "/api/x"), seg())).status).toBe(200);
      expect(handler).toHaveBeenCalledTimes(4);
    },
  );
});

describe("withUser: input", () => {
  it("path, query and body are parsed; a bad one is 400 naming the field and nothing runs", async () => {
    const { seen, handler } = recorder();
    const route = withUser(
      {
        permission: "payments.write",
        params: IdParams,
        query: z.object({ limit: z.coerce.number().int().max(10).optional() }),
        body: z.object({ amount: z.string() }),
      },
      handler,
    );
    const ok = await route(request("POST", "/api/x?limit=5&junk=1", { body: '{"amount":"1.00"}' }), seg({ id: ID }));
    expect(ok.status).toBe(200);
    expect(seen[0]).toMatchObject({ params: { id: ID }, query: { limit: 5 }, body: { amount: "1.00" } });
    expect(seen[0]?.query).toEqual({ limit: 5 });

    const badId = await route(request("POST", "/api/x", { body: '{"amount":"1"}' }), seg({ id: "nope" }));
    expect(badId.status).toBe(400);
    expect(await badId.json()).toMatchObject({ details: { errors: { id: [expect.any(String)] } } });
    const badQuery = await route(request("POST", "/api/x?limit=99", { body: '{"amount":"1"}' }), seg({ id: ID }));
    expect(badQuery.status).toBe(400);
    expect(await badQuery.json()).toMatchObject({ details: { errors: { limit: [expect.any(String)] } } });
    const badBody = await route(request("POST", "/api/x", { body: '{"amount":1}' }), seg({ id: ID }));
    expect(badBody.status).toBe(400);
    expect(await badBody.json()).toMatchObject({ details: { errors: { amount: [expect.any(String)] } } });
    const notJson = await route(request("POST", "/api/x", { body: "{amount" }), seg({ id: ID }));
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({
      message: "body is not valid JSON",
      details: { errors: { body: ["is not valid JSON"] } },
    });
    // An empty or blank body is no body (the schema says what is missing), not malformed JSON.
    for (const blank of ["", "  "]) {
      const empty = await route(request("POST", "/api/x", { body: blank }), seg({ id: ID }));
      expect(empty.status).toBe(400);
      const answer = (await empty.json()) as { message: string; details: { errors: { body: string[] } } };
      expect(answer.details.errors.body).toHaveLength(1);
      expect(answer.message).not.toBe("body is not valid JSON");
    }
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("without schemas the handler gets no parameters, query or body", async () => {
    const { seen, handler } = recorder();
    await withUser({ permission: "ledger.read" }, handler)(request("GET", "/api/x?a=1"), seg({ id: ID }));
    expect(seen[0]).toMatchObject({ params: {}, query: undefined, body: undefined });
  });
});

describe("withUser: what goes upstream", () => {
  it(
    "a write forwards UUIDv5(user, browser key), never the browser's key; a missing or non-UUID key is " + "400",
    async () => {
      const { seen, handler } = recorder();
      const route = withUser({ permission: "payments.write" }, handler);
      await route(request("POST", "/api/x"), seg());
      const write = seen[0]?.write;
      expect(write?.idempotencyKey).toBe(derivedIdempotencyKey("user-1", KEY));
      expect(write?.idempotencyKey).not.toBe(KEY);
      expect(write).toMatchObject({ companyId: A.id });
      for (const key of [null, "", "not-a-uuid"]) {
        const res = await route(request("POST", "/api/x", { key }), seg());
        expect(res.status, String(key)).toBe(400);
        expect(await res.json()).toMatchObject({
          message: "Idempotency-Key header must be a UUID",
          details: { errors: { "Idempotency-Key": ["must be a UUID"] } },
        });
      }
      expect(handler).toHaveBeenCalledTimes(1);
    },
  );

  it("a read has no write context: reading ctx.write is a 500, logged as an error", async () => {
    const { seen, handler } = recorder((ctx: RouteContext<unknown, unknown, unknown>) => ctx.write);
    const res = await withUser({ permission: "ledger.read" }, handler)(request("GET", "/api/x"), seg());
    expect(res.status).toBe(500);
    expect(seen[0]?.read).toEqual({ requestId: expect.any(String), outcome: {}, companyId: A.id });
    expect(state.error).toHaveLength(1);
    expect(state.error[0]?.msg).toBe("bff request failed");
    expect(state.error[0]?.obj).toMatchObject({ status: 500, err: expect.any(Error) });
  });

  it("HEAD is a read: no Origin or key needed", async () => {
    const { handler } = recorder();
    const res = await withUser({ permission: "ledger.read" }, handler)(
      request("HEAD", "/api/x", { origin: null, key: null }),
      seg(),
    );
    expect(res.status).toBe(200);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it(
    "company: required sends the selected one (403 without one); none sends none; body must name the " + "selected",
    async () => {
      const { seen, handler } = recorder();
      await withUser({ permission: "ledger.read" }, handler)(request("GET", "/api/x"), seg());
      expect(seen[0]?.read.companyId).toBe(A.id);
      await withUser({ permission: "ledger.read", company: "none" }, handler)(request("GET", "/api/x"), seg());
      expect(seen[1]?.read).not.toHaveProperty("companyId");

      signIn(["treasurer"], null);
      const none = await withUser({ permission: "ledger.read" }, handler)(request("GET", "/api/x"), seg());
      expect(none.status).toBe(403);
      expect(await none.json()).toMatchObject({
        error: "permission_denied",
        message: "No company is available to you. Ask an administrator for access.",
      });
      const noneMode = withUser({ permission: "ledger.read", company: "none" }, handler);
      expect((await noneMode(request("GET", "/api/x"), seg())).status).toBe(200);

      signIn(["treasurer"]);
      const body = z.object({ company_id: z.string() });
      const route = withUser({ permission: "payments.write", company: "body", body }, handler);
      const other = await route(request("POST", "/api/x", { body: JSON.stringify({ company_id: B_ID }) }), seg());
      expect(other.status).toBe(400);
      expect(await other.json()).toMatchObject({
        message: "company_id must be the selected company",
        details: { errors: { company_id: ["must be the selected company"] } },
      });
      // No body at all is not the selected company either (400, not a crash).
      const bodiless = withUser({ permission: "payments.write", company: "body" }, handler);
      expect((await bodiless(request("POST", "/api/x"), seg())).status).toBe(400);
      const mine = await route(request("POST", "/api/x", { body: JSON.stringify({ company_id: A.id }) }), seg());
      expect(mine.status).toBe(200);
      expect(handler).toHaveBeenCalledTimes(4);
    },
  );

  it("a schema-level error of the path or query is filed under 'path' or 'query'", async () => {
    const { handler } = recorder();
    const params = IdParams.refine(() => false, "is not an object the route serves");
    const query = z.object({}).refine(() => false, "needs from or to");
    const badPath = await withUser({ permission: "ledger.read", params }, handler)(
      request("GET", "/x"),
      seg({ id: ID }),
    );
    expect(await badPath.json()).toMatchObject({
      details: { errors: { path: ["is not an object the route serves"] } },
    });
    const badQuery = await withUser({ permission: "ledger.read", query }, handler)(request("GET", "/x"), seg());
    expect(await badQuery.json()).toMatchObject({ details: { errors: { query: ["needs from or to"] } } });
    expect(handler).not.toHaveBeenCalled();
  });

  it("ignoreCompanyCookie reaches the request context", async () => {
    const { seen, handler } = recorder();
    await withUser({ permission: "ledger.read", ignoreCompanyCookie: true }, handler)(request("GET", "/x"), seg());
    await withUser({ permission: "ledger.read" }, handler)(request("GET", "/x"), seg());
    expect(seen.map((c) => (c as unknown as { ignoredCookie: boolean }).ignoredCookie)).toEqual([true, false]);
  });
});

describe("withUser: answer and audit", () => {
  it(
    "status: the handler's JSON at 200 or the route's status; undefined is 204; a Response keeps its " + "own",
    async () => {
      const res = await withUser({ permission: "ledger.read" }, async () => ({ a: 1 }))(
        request("GET", "/x", { headers: { "x-request-id": "rid-1" } }),
        seg(),
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ a: 1 });
      expect(res.headers.get("x-request-id")).toBe("rid-1");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(state.info.at(-1)).toEqual({
        obj: {
          requestId: "rid-1",
          method: "GET",
          path: "/x",
          status: 200,
          ms: expect.any(Number),
          userId: "user-1",
        },
        msg: "bff request",
      });

      const created = await withUser({ permission: "payments.write", status: 201 }, async () => ({ id: ID }))(
        request("POST", "/x"),
        seg(),
      );
      expect(created.status).toBe(201);
      const empty = await withUser({ permission: "payments.write" }, async () => undefined)(
        request("POST", "/x"),
        seg(),
      );
      expect(empty.status).toBe(204);
      expect(await empty.text()).toBe("");
      expect(empty.headers.get("x-request-id")).toBeTruthy();
      const statusNoContent = await withUser({ permission: "payments.write", status: 201 }, async () => undefined)(
        request("POST", "/x"),
        seg(),
      );
      expect(statusNoContent.status).toBe(204);

      const own = await withUser({ permission: "ledger.read" }, async () => new Response("a,b\n", { status: 200 }))(
        request("GET", "/x", { headers: { "x-request-id": "rid-csv" } }),
        seg(),
      );
      expect(await own.text()).toBe("a,b\n");
      expect(own.headers.get("x-request-id")).toBe("rid-csv");
      expect(state.info.at(-1)).toMatchObject({ obj: { requestId: "rid-csv", status: 200 }, msg: "bff request" });
      for (const { obj } of state.info) {
        expect(obj.ms).toBeGreaterThanOrEqual(0);
        expect(obj.ms).toBeLessThan(60_000);
      }

      // A 204 route status sends no body even when the handler answered one.
      const noBody = await withUser({ permission: "payments.write", status: 204 }, async () => ({ id: ID }))(
        request("POST", "/x"),
        seg(),
      );
      expect(noBody.status).toBe(204);
      expect(await noBody.text()).toBe("");
    },
  );

  it("a successful write is audited: who, what, object, company, derived key, outcome", async () => {
    const audit = { action: "payment_batch.create", objectType: "payment_batch" } as const;
    const route = withUser({ permission: "payments.write", audit }, async () => ({ id: ID }));
    await route(request("POST", "/x", { headers: { "x-request-id": "rid-audit" } }), seg());
    expect(state.audit).toEqual([
      {
        userId: "user-1",
        userEmail: "u@test.local",
        action: "payment_batch.create",
        objectType: "payment_batch",
        objectId: ID,
        companyId: A.id,
        idempotencyKey: derivedIdempotencyKey("user-1", KEY),
        outcome: "success",
        requestId: "rid-audit",
      },
    ]);
  });

  it(
    "audit object and company: the handler's, else the answer's id, else the path id; else the body's " + "company",
    async () => {
      const audit = { action: "payment_batch.create", objectType: "payment_batch" } as const;
      const body = z.object({ company_id: z.string() }).partial();
      const json = JSON.stringify({ company_id: B_ID });
      const other = "40000000-0000-4000-8000-000000000002";

      await withUser({ permission: "payments.write", audit, params: IdParams, company: "none", body }, async () => ({
        id: 7,
      }))(request("POST", "/x", { body: json }), seg({ id: ID }));
      expect(state.audit.at(-1)).toMatchObject({ objectId: ID, companyId: B_ID });

      await withUser({ permission: "payments.write", audit, company: "none", body }, async (ctx) => {
        ctx.audit.objectId = other;
        ctx.audit.companyId = A.id;
        ctx.audit.details = { reason: "because" };
        // The treasury client marks a replayed answer on the write context's outcome.
        const outcome = ctx.write.outcome;
        if (!outcome) throw new Error("no outcome on the write context");
        outcome.replayed = true;
        return { id: ID };
      })(request("POST", "/x", { body: json }), seg());
      expect(state.audit.at(-1)).toMatchObject({
        objectId: other,
        companyId: A.id,
        details: { reason: "because" },
        outcome: "replayed",
      });

      await withUser({ permission: "payments.write", audit, company: "none" }, async () => "done")(
        request("POST", "/x"),
        seg(),
      );
      expect(state.audit.at(-1)).toMatchObject({ objectId: null, companyId: null, outcome: "success" });
      expect(state.audit.at(-1)).not.toHaveProperty("details");
      expect(state.audit).toHaveLength(3);
    },
  );

  it("a batch is named by its reference in the audit entry: only a payment batch, only a non-blank string", async () => {
    const write = (objectType: string, answer: unknown, details?: Record<string, unknown>) =>
      withUser(
        { permission: "payments.write", audit: { action: "payment_batch.create", objectType }, company: "none" },
        async (ctx) => {
          if (details) ctx.audit.details = details;
          return answer;
        },
      )(request("POST", "/x"), seg());
    const detailsOf = () => state.audit.at(-1)?.details;

    await write("payment_batch", { id: ID, reference: "Suppliers week 48" });
    expect(detailsOf()).toEqual({ reference: "Suppliers week 48" });
    // The handler's own details are kept beside it, and win on a clash.
    await write("payment_batch", { id: ID, reference: "Rent" }, { instruction_count: 2, reference: "Handler's" });
    expect(detailsOf()).toEqual({ reference: "Handler's", instruction_count: 2 });
    for (const answer of [{ id: ID, reference: "   " }, { id: ID, reference: 48 }, { id: ID }, "done", null]) {
      await write("payment_batch", answer);
      expect(state.audit.at(-1), JSON.stringify(answer)).not.toHaveProperty("details");
    }
    await write("approval_request", { id: ID, reference: "Not a batch" });
    expect(state.audit.at(-1)).not.toHaveProperty("details");
    expect(state.audit).toHaveLength(8);
  });

  it("audit of odd answers and bodies: null answer, null body, a non-string company_id", async () => {
    const audit = { action: "payment_batch.create", objectType: "payment_batch" } as const;
    const nullAnswer = await withUser({ permission: "payments.write", audit, company: "none" }, async () => null)(
      request("POST", "/x"),
      seg(),
    );
    expect(nullAnswer.status).toBe(200);
    expect(state.audit.at(-1)).toMatchObject({ objectId: null, companyId: null });
    const nullBody = await withUser(
      { permission: "payments.write", audit, company: "none", body: z.null() },
      async () => ({ id: ID }),
    )(request("POST", "/x", { body: "null" }), seg());
    expect(nullBody.status).toBe(200);
    expect(state.audit.at(-1)).toMatchObject({ objectId: ID, companyId: null });
    const numeric = z.object({ company_id: z.number() });
    await withUser({ permission: "payments.write", audit, company: "none", body: numeric }, async () => ({ id: ID }))(
      request("POST", "/x", { body: '{"company_id":5}' }),
      seg(),
    );
    expect(state.audit.at(-1)).toMatchObject({ companyId: null });
    expect(state.audit).toHaveLength(3);
  });

  it("nothing is audited when the handler fails or the route has no audit", async () => {
    const audit = { action: "payment_batch.create", objectType: "payment_batch" } as const;
    const failing = await withUser({ permission: "payments.write", audit }, async () => {
      throw new BffError("conflict", "state does not allow it", { state: "approved" });
    })(request("POST", "/x"), seg());
    expect(failing.status).toBe(409);
    expect(await failing.json()).toMatchObject({ error: "conflict", details: { state: "approved" } });
    // A mapped error is logged at info level, not as a failure.
    expect(state.error).toEqual([]);
    expect(state.info.at(-1)?.obj).toMatchObject({ status: 409, userId: "user-1" });
    await withUser({ permission: "payments.write" }, async () => ({ id: ID }))(request("POST", "/x"), seg());
    expect(state.audit).toEqual([]);
  });
});

describe("withUser: hardening", () => {
  /** A body that records whether anything read it (a stream without Content-Length unless `length` is given). */
  function watchedBody(bytes: number) {
    const read = { pulled: false };
    const chunk = new TextEncoder().encode(`{"a":"${"x".repeat(Math.max(0, bytes - 8))}"}`);
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          read.pulled = true;
          controller.enqueue(chunk);
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    return { stream, read, length: chunk.byteLength };
  }

  function streamedRequest(path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
    return new NextRequest(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { origin: ORIGIN, "idempotency-key": KEY, "content-type": "application/json", ...headers },
      body,
      duplex: "half",
    } as unknown as ConstructorParameters<typeof NextRequest>[1]);
  }

  // No refusal here is an unexpected error (a 500 would be logged as one).
  afterEach(() => expect(state.error).toEqual([]));
  const Loose = z.record(z.string(), z.unknown());

  describe("NUL characters (finding 1)", () => {
    it("a NUL in any body string is 400 naming the field, however deep; nothing runs, nothing is audited", async () => {
      const { handler } = recorder();
      const route = withUser(
        {
          permission: "counterparties.manage",
          body: Loose,
          audit: { action: "counterparties.create", objectType: "counterparty" },
        },
        handler,
      );
      const cases: [unknown, string][] = [
        [{ name: "Nul\u0000Payee", iban: "NL91ABNA0417164300" }, "name"],
        [{ instructions: [{ ok: "a" }, { creditor_name: "a\u0000" }] }, "instructions[1].creditor_name"],
        [{ deep: { deeper: { text: "\u0000" } } }, "deep.deeper.text"],
        [{ "key\u0000": "value" }, "body"],
      ];
      for (const [body, field] of cases) {
        const res = await route(request("POST", "/api/x", { body: JSON.stringify(body) }), seg());
        expect(res.status).toBe(400);
        const answer = (await res.json()) as { error: string; message: string; details: { errors: object } };
        expect(answer.error).toBe("validation_error");
        expect(Object.keys(answer.details.errors)).toEqual([field]);
        expect(answer.message).toContain(field);
      }
      expect(handler).not.toHaveBeenCalled();
      expect(state.audit).toEqual([]);
    });

    it("a NUL in a query value or a path parameter is 400 naming it", async () => {
      const { handler } = recorder();
      const route = withUser(
        { permission: "ledger.read", query: z.object({ search: z.string().optional() }) },
        handler,
      );
      const res = await route(request("GET", "/api/x?search=a%00b"), seg());
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ details: { errors: { search: [expect.any(String)] } } });
      const withParams = withUser({ permission: "ledger.read", params: z.object({ kind: z.string() }) }, handler);
      const bad = await withParams(request("GET", "/api/x"), seg({ kind: "a\u0000" }));
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ details: { errors: { kind: [expect.any(String)] } } });
      expect(handler).not.toHaveBeenCalled();
    });
  });

  describe("request size limits (finding 2)", () => {
    it("over the default limit: 413 from Content-Length before the body is read, before the session is even looked at", async () => {
      const { handler } = recorder();
      const route = withUser({ permission: "ledger.read", company: "none", body: Loose }, handler);
      const body = watchedBody(DEFAULT_MAX_BODY_BYTES + 1);
      state.ctx = null; // no session: the size is refused first, without reading
      const res = await route(streamedRequest("/api/x", body.stream, { "content-length": String(body.length) }), seg());
      expect(res.status).toBe(413);
      const answer = (await res.json()) as { error: string; details: Record<string, unknown> };
      expect(answer.error).toBe("payload_too_large");
      expect(answer.details).toMatchObject({ max_bytes: DEFAULT_MAX_BODY_BYTES });
      expect(body.read.pulled).toBe(false);
      expect(handler).not.toHaveBeenCalled();
    });

    it("a body without Content-Length is counted as it streams: 413 past the limit, nothing runs", async () => {
      const { handler } = recorder();
      const route = withUser(
        {
          permission: "ledger.read",
          company: "none",
          body: Loose,
          maxBody: 1024,
          audit: { action: "counterparties.create", objectType: "counterparty" },
        },
        handler,
      );
      const over = await route(streamedRequest("/api/x", watchedBody(1025).stream), seg());
      expect(over.status).toBe(413);
      // A Content-Length that lies (smaller than the body) is no way around the count.
      const lying = await route(streamedRequest("/api/x", watchedBody(4096).stream, { "content-length": "10" }), seg());
      expect(lying.status).toBe(413);
      expect(handler).not.toHaveBeenCalled();
      expect(state.audit).toEqual([]);
      const fits = await route(streamedRequest("/api/x", watchedBody(1000).stream), seg());
      expect(fits.status).toBe(200);
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it("a route declares a larger limit for what it takes (an upload); the raw request it reads is limited too", async () => {
      const big = 300 * 1024;
      const json = withUser(
        { permission: "ledger.read", company: "none", body: Loose, maxBody: 512 * 1024 },
        async (ctx) => ({ size: JSON.stringify(ctx.body).length }),
      );
      const res = await json(streamedRequest("/api/x", watchedBody(big).stream), seg());
      expect(res.status).toBe(200);
      // An upload handler reads ctx.request itself (multipart); it sees the whole body within the limit…
      const raw = withUser({ permission: "ledger.read", company: "none", maxBody: 512 * 1024 }, async (ctx) => ({
        bytes: (await ctx.request.arrayBuffer()).byteLength,
      }));
      const within = await raw(streamedRequest("/api/x", watchedBody(big).stream), seg());
      expect(within.status).toBe(200);
      expect(await within.json()).toEqual({ bytes: watchedBody(big).length });
      // …and never a body past it.
      const past = await raw(streamedRequest("/api/x", watchedBody(600 * 1024).stream), seg());
      expect(past.status).toBe(413);
    });

    it("a viewer's 50 MB JSON to a settings route is 413, not read", async () => {
      signIn(["viewer"]);
      const { handler } = recorder();
      const route = withUser(
        {
          permission: "ledger.read",
          company: "none",
          body: z.object({ currency: z.string() }),
          maxBody: SETTINGS_MAX_BODY_BYTES,
        },
        handler,
      );
      const body = watchedBody(50 * 1024 * 1024);
      const res = await route(streamedRequest("/api/x", body.stream, { "content-length": String(body.length) }), seg());
      expect(res.status).toBe(413);
      expect(body.read.pulled).toBe(false);
      expect(SETTINGS_MAX_BODY_BYTES).toBeLessThanOrEqual(8 * 1024);
    });
  });

  describe("Content-Type of JSON writes (finding 6)", () => {
    it("a JSON body without a JSON Content-Type is 415 naming the expected type; JSON with a charset is fine", async () => {
      const { handler } = recorder();
      const route = withUser({ permission: "ledger.read", company: "none", body: Loose }, handler);
      for (const type of ["", "text/plain", "application/x-www-form-urlencoded", "application/jsonx"]) {
        const res = await route(
          request("POST", "/api/x", { body: '{"a":1}', headers: { "content-type": type } }),
          seg(),
        );
        expect(res.status, type).toBe(415);
        const answer = (await res.json()) as { error: string; message: string };
        expect(answer.error).toBe("unsupported_media_type");
        expect(answer.message).toContain("application/json");
      }
      const noHeader = new NextRequest(`${ORIGIN}/api/x`, {
        method: "POST",
        headers: { origin: ORIGIN, "idempotency-key": KEY },
        body: new TextEncoder().encode('{"a":1}'),
      });
      expect((await route(noHeader, seg())).status).toBe(415);
      expect(handler).not.toHaveBeenCalled();
      for (const type of ["application/json", "application/json; charset=utf-8", "Application/JSON"]) {
        const res = await route(
          request("POST", "/api/x", { body: '{"a":1}', headers: { "content-type": type } }),
          seg(),
        );
        expect(res.status, type).toBe(200);
      }
    });
  });

  describe("a body's company must be a known one (finding 6)", () => {
    it("knownCompany: a company_id that is none of the companies the dashboard knows is 400 naming company_id", async () => {
      signIn(["admin"]);
      const { handler } = recorder();
      const route = withUser(
        {
          permission: "policies.manage",
          company: "none",
          knownCompany: true,
          body: z.object({ company_id: z.string().nullable().optional() }),
        },
        handler,
      );
      const res = await route(request("POST", "/api/x", { body: JSON.stringify({ company_id: B_ID }) }), seg());
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ details: { errors: { company_id: [expect.any(String)] } } });
      expect(handler).not.toHaveBeenCalled();
      for (const company_id of [A.id, null, undefined]) {
        const ok = await route(request("POST", "/api/x", { body: JSON.stringify({ company_id }) }), seg());
        expect(ok.status).toBe(200);
      }
    });
  });

  describe("request ids (finding 4)", () => {
    it("kept when letters, digits and -_.: up to 128 characters; else replaced by our own", async () => {
      const route = withUser({ permission: "ledger.read" }, recorder().handler);
      const idOf = async (given: string) =>
        (await route(request("GET", "/api/x", { headers: { "x-request-id": given } }), seg())).headers.get(
          "x-request-id",
        );
      for (const good of ["req-1", "a:b.c_d-e", "x".repeat(128), "trace:00-4bf92f.01"])
        expect(await idOf(good)).toBe(good);
      for (const bad of ["=1+1", "@SUM(A1)", "a b", "x".repeat(129), "a;b", "é", "a\tb"]) {
        const got = await idOf(bad);
        expect(got).not.toBe(bad);
        expect(got).toMatch(/^[0-9a-f-]{36}$/);
      }
    });
  });
});
