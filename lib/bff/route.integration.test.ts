/**
 * The BFF's real route handlers (`withUser`) against the real local
 * treasury-api (in-memory PGlite, small demo seed), with the session and the
 * request cookies supplied by the test:
 *
 * - lower roles against every organization.manage, reconciliation.write and
 *   webhooks.manage write: 403 naming the permission, nothing upstream; the
 *   role that holds the permission gets past the check (control);
 * - the Idempotency-Key sent upstream is derived per user (never the
 *   browser's key), so two users with the same browser key do two things;
 * - a user limited to some companies sees and decides only their approvals,
 *   and naming another company is 403.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

vi.mock("../auth/session", async () => (await import("./testing/local-api")).sessionModule);
vi.mock("next/headers", async () => (await import("./testing/local-api")).headersModule);

import { randomUUID } from "node:crypto";
import type { Role } from "../auth/roles";
import type { DashboardUser } from "../db/users";
import { collectAll, type TreasuryClient } from "../treasury-client";
import {
  callRoute,
  session,
  startLocalApi,
  upstreamPath,
  useBffEnv,
  type LocalApi,
  type RouteHandler,
} from "./testing/local-api";
import { derivedIdempotencyKey } from "./idempotency";
import * as companiesRoute from "../../app/api/treasury/companies/route";
import * as accountsRoute from "../../app/api/treasury/accounts/route";
import * as confirmRoute from "../../app/api/treasury/reconciliation/matches/[id]/confirm/route";
import * as rejectMatchRoute from "../../app/api/treasury/reconciliation/matches/[id]/reject/route";
import * as webhooksRoute from "../../app/api/treasury/webhooks/route";
import * as webhookRoute from "../../app/api/treasury/webhooks/[id]/route";
import * as webhookTestRoute from "../../app/api/treasury/webhooks/[id]/test/route";
import * as batchesRoute from "../../app/api/treasury/payments/batches/route";
import * as pendingRoute from "../../app/api/treasury/approvals/pending/route";
import * as approveRoute from "../../app/api/treasury/approvals/[id]/approve/route";

const ORIGIN = "http://127.0.0.1:3999";
type Handler = RouteHandler;

let local: LocalApi;
let client: TreasuryClient;
let companies: { id: string; name: string }[] = [];
/** Every upstream write: method, path and the Idempotency-Key it carried. */
const upstreamWrites: { method: string; path: string; key: string | null }[] = [];

const userIds = new Map<string, string>();
/** A dashboard user; the same name is the same user (one stable UUID per name). */
function user(
  roles: Role[],
  companyIds: string[] | null = null,
  name = `user-${roles.join("-") || "none"}`,
): DashboardUser {
  const id = userIds.get(name) ?? randomUUID();
  userIds.set(name, id);
  return { id, email: `${name}@test.local`, name, roles, companyIds, disabled: false };
}

/** One request through a route handler, as `who`. Writes carry Origin and a browser key unless given. */
function call(
  handler: Handler,
  who: DashboardUser,
  method: string,
  path: string,
  opts: { params?: Record<string, string>; json?: unknown; key?: string } = {},
) {
  return callRoute<Record<string, unknown> & { items?: { id: string; company_id?: string; object_id?: string }[] }>(
    handler,
    { who, origin: ORIGIN, method, path, ...opts },
  );
}

beforeAll(async () => {
  local = await startLocalApi({
    config: { allowPrivateWebhooks: true },
    fetch: (input, init, next) => {
      const method = init?.method ?? "GET";
      const path = upstreamPath(input);
      if (method !== "GET" && !path.includes("/auth/")) {
        upstreamWrites.push({ method, path, key: new Headers(init?.headers).get("idempotency-key") });
      }
      return next(input, init);
    },
  });
  useBffEnv(local, ORIGIN);
  client = local.client;
  companies = [...(await collectAll(client.listCompanies({}, { pageSize: 1000 })))].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  expect(companies.length).toBeGreaterThanOrEqual(2);
}, 120_000);
afterAll(async () => {
  await local?.api.close();
});

const NOK_INSTRUCTION = {
  amount: "12.00",
  currency: "NOK",
  creditor_name: "Test AS",
  creditor_iban: "NO9386011117947",
};

/** A write route and who may make it: `allowed` passes the role check, each of `lower` gets 403 `permission`. */
interface RoleCase {
  permission: string;
  allowed: Role;
  lower: Role[];
  handler: () => Handler;
  method: string;
  path: string;
  params?: Record<string, string>;
  json?: () => unknown;
}

/** A write only an admin may make: viewer, treasurer and approver are refused. */
const adminOnly = (permission: string, c: Omit<RoleCase, "permission" | "allowed" | "lower">): RoleCase => ({
  permission,
  allowed: "admin",
  lower: ["viewer", "treasurer", "approver"],
  ...c,
});

describe("lower roles against the admin and treasurer writes (real routes)", () => {
  const missing = randomUUID();
  const cases: RoleCase[] = [
    adminOnly("organization.manage", {
      handler: () => companiesRoute.POST as Handler,
      method: "POST",
      path: "/companies",
      json: () => ({ orgnr: `T-${randomUUID().slice(0, 8)}`, name: "Role Test AS", country: "NO" }),
    }),
    adminOnly("organization.manage", {
      handler: () => accountsRoute.POST as Handler,
      method: "POST",
      path: "/accounts",
      json: () => ({
        company_id: companies[0]?.id,
        bank_id: "DNBANOKK",
        external_ref: "NO9386011117947",
        external_ref_type: "IBAN",
        currency: "NOK",
        status: "active",
      }),
    }),
    ...(["confirm", "reject"] as const).map((kind) => ({
      permission: "reconciliation.write",
      allowed: "treasurer" as Role,
      lower: ["viewer", "approver", "admin"] as Role[],
      handler: () => (kind === "confirm" ? confirmRoute.POST : rejectMatchRoute.POST) as Handler,
      method: "POST",
      path: `/reconciliation/matches/${missing}/${kind}`,
      params: { id: missing },
    })),
    adminOnly("webhooks.manage", {
      handler: () => webhooksRoute.POST as Handler,
      method: "POST",
      path: "/webhooks",
      json: () => ({ url: "http://127.0.0.1:9/role-test", events: ["transaction.created"] }),
    }),
    ...(["PATCH", "DELETE"] as const).map((method) =>
      adminOnly("webhooks.manage", {
        handler: () => (method === "PATCH" ? webhookRoute.PATCH : webhookRoute.DELETE) as Handler,
        method,
        path: `/webhooks/${missing}`,
        params: { id: missing },
        json: method === "PATCH" ? () => ({ active: false }) : undefined,
      }),
    ),
    adminOnly("webhooks.manage", {
      handler: () => webhookTestRoute.POST as Handler,
      method: "POST",
      path: `/webhooks/${missing}/test`,
      params: { id: missing },
    }),
  ];
  for (const c of cases) {
    const name = `${c.method} ${c.path.replace(missing, "{id}")}: ${c.lower.join(", ")} → 403 ${c.permission}`;
    it(`${name}, nothing upstream; ${c.allowed} gets past the role check`, async () => {
      for (const role of c.lower) {
        const before = upstreamWrites.length;
        const res = await call(c.handler(), user([role]), c.method, c.path, { params: c.params, json: c.json?.() });
        expect(res.status, `${role}: ${JSON.stringify(res.body)}`).toBe(403);
        expect(res.body).toMatchObject({ error: "permission_denied", details: { permission: c.permission } });
        expect(upstreamWrites.length, `${role} reached the API`).toBe(before);
      }
      const ok = await call(c.handler(), user([c.allowed]), c.method, c.path, { params: c.params, json: c.json?.() });
      // Created, updated or the API's own 404 for the random id: either way the role check let it through.
      expect([200, 201, 204, 404], JSON.stringify(ok.body)).toContain(ok.status);
      expect(upstreamWrites.at(-1)?.path).toBe(c.path);
    });
  }
});

describe("withUser: the Idempotency-Key sent upstream is derived per user", () => {
  it("forwards UUIDv5(user, browser key), never the browser's; two users, one browser key: two batches", async () => {
    const browserKey = randomUUID();
    const company = companies[0]?.id ?? "";
    const body = {
      company_id: company,
      currency: "NOK",
      instructions: [{ ...NOK_INSTRUCTION, end_to_end_id: `KEY-${browserKey.slice(0, 8)}` }],
    };
    const alice = user(["treasurer"], null, "alice");
    const bob = user(["treasurer"], null, "bob");
    session.cookie = company;
    const a = await call(batchesRoute.POST as Handler, alice, "POST", "/payments/batches", {
      json: body,
      key: browserKey,
    });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    const sent = upstreamWrites.at(-1);
    expect(sent).toMatchObject({
      method: "POST",
      path: "/payments/batches",
      key: derivedIdempotencyKey(alice.id, browserKey),
    });
    expect(sent?.key).not.toBe(browserKey);
    // Bob's browser happens to send the same key with another body: his own batch, not a 409 or Alice's replay.
    const b = await call(batchesRoute.POST as Handler, bob, "POST", "/payments/batches", {
      json: { ...body, instructions: [{ ...body.instructions[0], amount: "13.00" }] },
      key: browserKey,
    });
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    expect(b.body.id).not.toBe(a.body.id);
    expect(upstreamWrites.at(-1)?.key).toBe(derivedIdempotencyKey(bob.id, browserKey));
    // Alice again with her key: the same batch (replayed upstream).
    const again = await call(batchesRoute.POST as Handler, alice, "POST", "/payments/batches", {
      json: body,
      key: browserKey,
    });
    expect(again.body.id).toBe(a.body.id);
    session.cookie = undefined;
  });
});

describe("withUser: path parameters and the body's company", () => {
  it("a path id that is not a UUID is 400 naming it, before anything goes upstream", async () => {
    const res = await call(webhookRoute.GET as Handler, user(["admin"]), "GET", "/webhooks/nope", {
      params: { id: "nope" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: "id must be a UUID", details: { errors: { id: ["must be a UUID"] } } });
  });

  it("a batch for another company than the selected one is 400 naming company_id, nothing upstream", async () => {
    const [selected, other] = companies;
    session.cookie = selected?.id;
    const before = upstreamWrites.length;
    const res = await call(batchesRoute.POST as Handler, user(["treasurer"]), "POST", "/payments/batches", {
      json: {
        company_id: other?.id,
        currency: "NOK",
        instructions: [{ ...NOK_INSTRUCTION, end_to_end_id: "OTHER-COMPANY" }],
      },
    });
    session.cookie = undefined;
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ details: { errors: { company_id: ["must be the selected company"] } } });
    expect(upstreamWrites.length).toBe(before);
  });
});

describe("company narrowing for a user limited to some companies", () => {
  const approvals = new Map<string, string>(); // company id → approval id

  beforeAll(async () => {
    for (const co of companies.slice(0, 2)) {
      const batch = await client.createBatch(
        { companyId: co.id, idempotencyKey: randomUUID() },
        {
          company_id: co.id,
          currency: "NOK",
          instructions: [{ ...NOK_INSTRUCTION, end_to_end_id: `NARROW-${co.id.slice(0, 8)}` }],
        },
      );
      await client.submitBatch({ companyId: co.id, idempotencyKey: randomUUID() }, batch.id);
      const pending = await collectAll(client.listPendingApprovals({ companyId: co.id }, { pageSize: 1000 }));
      const found = pending.find((p) => p.object_id === batch.id);
      if (!found) throw new Error("approval request not opened");
      approvals.set(co.id, found.id);
    }
  }, 60_000);

  it("the queue shows only the user's companies; an unrestricted approver sees both", async () => {
    const [mine, other] = companies;
    const limited = user(["approver"], [mine?.id ?? ""], "limited-approver");
    const res = await call(pendingRoute.GET as Handler, limited, "GET", "/approvals/pending?page_size=1000");
    expect(res.status).toBe(200);
    const ids = (res.body.items ?? []).map((i) => i.id);
    expect(ids).toContain(approvals.get(mine?.id ?? ""));
    expect(ids).not.toContain(approvals.get(other?.id ?? ""));
    expect((res.body.items ?? []).every((i) => i.company_id === mine?.id)).toBe(true);
    const all = await call(
      pendingRoute.GET as Handler,
      user(["approver"], null, "all-approver"),
      "GET",
      "/approvals/pending?page_size=1000",
    );
    expect((all.body.items ?? []).map((i) => i.id)).toEqual(expect.arrayContaining([...approvals.values()]));
  });

  it("naming another company is 403; deciding another company's request is 404 and changes nothing", async () => {
    const [mine, other] = companies;
    const limited = user(["approver"], [mine?.id ?? ""], "limited-approver");
    const named = await call(pendingRoute.GET as Handler, limited, "GET", `/approvals/pending?company_id=${other?.id}`);
    expect(named.status).toBe(403);
    const otherApproval = approvals.get(other?.id ?? "") ?? "";
    const before = upstreamWrites.length;
    const decided = await call(approveRoute.POST as Handler, limited, "POST", `/approvals/${otherApproval}/approve`, {
      params: { id: otherApproval },
    });
    expect(decided.status).toBe(404);
    expect(upstreamWrites.length).toBe(before);
    const still = await collectAll(client.listPendingApprovals({ companyId: other?.id }, { pageSize: 1000 }));
    expect(still.find((p) => p.id === otherApproval)).toMatchObject({ approved_count: 0 });
    // Its own company's request: decided, in that company.
    const ownApproval = approvals.get(mine?.id ?? "") ?? "";
    // The test's batches repeat one payment, so the approval acknowledges the high-risk signals (possible duplicate).
    const ok = await call(approveRoute.POST as Handler, limited, "POST", `/approvals/${ownApproval}/approve`, {
      params: { id: ownApproval },
      json: { acknowledged_signals: ["possible_duplicate", "bank_details_changed", "insufficient_funds"] },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});
