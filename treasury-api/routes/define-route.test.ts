/**
 * The caller check every protected route runs first (`defineRoute`'s guard): the bearer caller must exist, hold the
 * route's scope and, for a write, be approved for writes; a Form B caller's X-Tenant-ID must name its own tenant; an
 * X-Company-ID must be a UUID of a company the caller may use; and the data scope the handler gets is narrowed to
 * exactly that company (or to every linked company, or the whole tenant for Form A). No database: a small Hono app
 * with a caller chosen per test and handlers that answer the scope they were given.
 */
import { describe, expect, it } from "vitest";
import { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import type { Scope } from "@treasury/contract/auth";
import type { AppEnv, Caller, CompanyRule } from "../lib/context";
import { ApiError } from "../lib/errors";
import { defineRoute } from "./define-route";

const TENANT = "1000000a-0000-4000-8000-00000000000b";
const OTHER_TENANT = "10000000-0000-4000-8000-000000000002";
const MINE = "20000000-0000-4000-8000-00000000000a";
const ALSO_MINE = "20000000-0000-4000-8000-00000000000b";
const NOT_MINE = "20000000-0000-4000-8000-00000000000c";

const Answer = z.object({ companyId: z.string().nullable(), companyIds: z.array(z.string()).nullable() });

function caller(over: Partial<Caller> = {}): Caller {
  return {
    clientId: "30000000-0000-4000-8000-000000000001",
    clientName: "client",
    form: "B",
    tenantId: TENANT,
    scopes: ["read:payments", "write:payments"],
    writeApproved: true,
    companyIds: [MINE, ALSO_MINE],
    ...over,
  };
}

/** One GET route per company rule and one bodiless write, all answering the scope the guard set. */
function appFor(who: Caller | null) {
  const app = new OpenAPIHono<AppEnv>();
  app.use("*", async (c, next) => {
    c.set("caller", who);
    c.set("responseHeaders", {});
    await next();
  });
  app.onError((err, c) => {
    if (!(err instanceof ApiError)) throw err;
    return c.json({ error: err.code, message: err.message, details: err.details }, err.status as 400, err.headers);
  });
  for (const rule of ["required", "optional", "none"] as CompanyRule[]) {
    const route = defineRoute({
      method: "get",
      path: `/${rule}`,
      scope: "read:payments" as Scope,
      company: rule,
      responses: { 200: { description: "ok", content: { "application/json": { schema: Answer } } } },
    });
    app.openapi(route, (c) => {
      expect(c.get("scope").tenantId).toBe(who?.tenantId);
      return c.json({ companyId: c.get("companyId"), companyIds: c.get("scope").companyIds }, 200);
    });
  }
  const write = defineRoute({
    method: "post",
    path: "/write",
    scope: "write:payments" as Scope,
    company: "required",
    responses: { 204: { description: "done" } },
  });
  app.openapi(write, (c) => c.body(null, 204));
  return app;
}

const get = (who: Caller | null, path: string, headers: Record<string, string> = {}) =>
  appFor(who).request(path, { headers });

describe("the caller check of defineRoute", () => {
  it("no caller: 401 with WWW-Authenticate: Bearer", async () => {
    const res = await get(null, "/optional");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
    expect(await res.json()).toMatchObject({
      error: "authentication_failed",
      message: "Authorization: Bearer <access token> is required",
    });
  });

  it("a token without the route's scope is 403 naming the scope; with it the route runs", async () => {
    const refused = await get(caller({ scopes: ["read:ledger"] }), "/optional");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: "permission_denied",
      message: "The access token lacks the scope read:payments",
      details: { required_scope: "read:payments" },
    });
    expect((await get(caller({ scopes: ["read:payments"] }), "/optional")).status).toBe(200);
  });

  it("a write needs write approval; a read does not", async () => {
    const headers = { "x-company-id": MINE, "idempotency-key": "k-1" };
    const unapproved = caller({ writeApproved: false });
    const refused = await appFor(unapproved).request("/write", { method: "POST", headers });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      message: "Write access has not been approved for this client",
      details: { reason: "write_not_approved" },
    });
    expect((await get(unapproved, "/optional")).status).toBe(200);
    // Approved: past the guard, the next check (the body rule, then idempotency) answers instead of a 403.
    const approved = await appFor(caller()).request("/write", { method: "POST", headers: { "x-company-id": MINE } });
    expect(approved.status).toBe(400);
    expect(await approved.json()).toMatchObject({ details: { errors: { "Idempotency-Key": ["is required"] } } });
  });

  it("Form B: X-Tenant-ID, if sent, must be the caller's tenant (any case); Form A is not refused here", async () => {
    const other = await get(caller(), "/optional", { "x-tenant-id": OTHER_TENANT });
    expect(other.status).toBe(403);
    expect(await other.json()).toMatchObject({
      error: "permission_denied",
      message: "X-Tenant-ID does not name the tenant that owns this client's companies",
    });
    expect((await get(caller(), "/optional", { "x-tenant-id": TENANT.toUpperCase() })).status).toBe(200);
    expect((await get(caller(), "/optional")).status).toBe(200);
    // Form A's tenant header is checked by the authentication middleware, not by the route guard.
    expect((await get(caller({ form: "A" }), "/optional", { "x-tenant-id": OTHER_TENANT })).status).toBe(200);
  });

  it("X-Company-ID must be a UUID (400 naming the header) of a company the caller may use (else 403)", async () => {
    const bad = await get(caller(), "/optional", { "x-company-id": "not-a-uuid" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: "validation_error",
      message: "X-Company-ID must be a UUID",
      details: { errors: { "X-Company-ID": ["must be a UUID"] } },
    });
    const foreign = await get(caller(), "/optional", { "x-company-id": NOT_MINE });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({
      error: "permission_denied",
      message: "The company is not accessible to this client",
      details: {},
    });
    // The rule "none" still checks a header it was sent.
    expect((await get(caller(), "/none", { "x-company-id": NOT_MINE })).status).toBe(403);
    expect((await get(caller(), "/none", { "x-company-id": "nope" })).status).toBe(400);
  });

  it("a company header narrows the scope to that one company, lower-cased", async () => {
    const res = await get(caller(), "/required", { "x-company-id": ALSO_MINE.toUpperCase() });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ companyId: ALSO_MINE, companyIds: [ALSO_MINE] });
    const a = await get(caller({ form: "A" }), "/optional", { "x-company-id": MINE });
    expect(await a.json()).toEqual({ companyId: MINE, companyIds: [MINE] });
  });

  it("rule required: Form B without the header is 400; Form A without it sees the whole tenant", async () => {
    const missing = await get(caller(), "/required");
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: "validation_error",
      message: "X-Company-ID header is required on company-scoped calls",
      details: { errors: { "X-Company-ID": ["is required"] } },
    });
    const a = await get(caller({ form: "A" }), "/required");
    expect(a.status).toBe(200);
    expect(await a.json()).toEqual({ companyId: null, companyIds: null });
  });

  it("rule optional without the header: Form B sees its linked companies, Form A the whole tenant", async () => {
    expect(await (await get(caller(), "/optional")).json()).toEqual({ companyId: null, companyIds: [MINE, ALSO_MINE] });
    expect(await (await get(caller({ form: "A" }), "/optional")).json()).toEqual({ companyId: null, companyIds: null });
  });

  it("rule none: an accepted header does not narrow (no company id, the caller's whole scope)", async () => {
    expect(await (await get(caller(), "/none", { "x-company-id": MINE })).json()).toEqual({
      companyId: null,
      companyIds: [MINE, ALSO_MINE],
    });
    expect(await (await get(caller({ form: "A" }), "/none", { "x-company-id": MINE })).json()).toEqual({
      companyId: null,
      companyIds: null,
    });
  });
});
