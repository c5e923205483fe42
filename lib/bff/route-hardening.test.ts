/**
 * `withUser`'s hardening of the dashboard's own input (issue 28), with the session, company context, audit log and
 * configuration stubbed as in route.test.ts:
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
import { DEFAULT_MAX_BODY_BYTES, SETTINGS_MAX_BODY_BYTES, withUser, type RouteContext } from "./route";

const ORIGIN = "http://dash.test:3000";
const A = { id: "20000000-0000-4000-8000-00000000000a", name: "Alpha AS", orgnr: "923609016", country: "NO" };
const B_ID = "20000000-0000-4000-8000-00000000000b";
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
    const route = withUser({ permission: "ledger.read", query: z.object({ search: z.string().optional() }) }, handler);
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
      const res = await route(request("POST", "/api/x", { body: '{"a":1}', headers: { "content-type": type } }), seg());
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
      const res = await route(request("POST", "/api/x", { body: '{"a":1}', headers: { "content-type": type } }), seg());
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
