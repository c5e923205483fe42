/**
 * Risk signals through the BFF's real route handlers, against the real local
 * treasury-api (in-memory PGlite, small demo seed) and the dashboard's
 * in-memory database:
 *
 * - a second batch paying the same IBAN the same amount is flagged
 *   `possible_duplicate` (high), with the earlier batch as evidence;
 * - approving it without acknowledging that signal is refused (409 naming the
 *   missing code, nothing sent upstream); with the acknowledgement it passes,
 *   and the audit entry carries the acknowledged codes;
 * - a batch above the debtor account's available balance is flagged
 *   `insufficient_funds` with the balance and the shortfall as evidence;
 * - bad input: an unknown signal code is 400 naming the field.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

const session: { user: DashboardUser | null; cookie: string | undefined } = { user: null, cookie: undefined };
vi.mock("../auth/session", () => ({ currentUser: async () => session.user }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({
    get: (name: string) => (name === "td_company" && session.cookie ? { name, value: session.cookie } : undefined),
  }),
}));

import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { startServer, type RunningServer } from "../../treasury-api/server";
import { DEMO_TREASURY_B } from "../../treasury-api/seed/demo-clients";
import type { Role } from "../auth/roles";
import { listAudit } from "../db/audit";
import type { DashboardUser } from "../db/users";
import { dashboardDb } from "../server/db";
import { seedDemoRates } from "../fx/demo-rates";
import { collectAll, createTreasuryClient, type TreasuryClient } from "../treasury-client";
import type { BatchRisk } from "../views/payments";
import * as batchesRoute from "../../app/api/treasury/payments/batches/route";
import * as submitRoute from "../../app/api/treasury/payments/batches/[id]/submit/route";
import * as riskRoute from "../../app/api/treasury/payments/batches/[id]/risk/route";
import * as payeeRoute from "../../app/api/treasury/payments/batches/[id]/payee-history/route";
import * as approveRoute from "../../app/api/treasury/approvals/[id]/approve/route";

const ORIGIN = "http://127.0.0.1:3998";
type Handler = (req: NextRequest, segment: { params: Promise<Record<string, string>> }) => Promise<Response>;

let api: RunningServer;
let client: TreasuryClient;
let company: { id: string; name: string };
const upstreamApprovals: string[] = [];

function person(name: string, roles: Role[]): DashboardUser {
  return { id: randomUUID(), email: `${name}@test.local`, name, roles, companyIds: null, disabled: false };
}
const treasurer = person("tina-treasurer", ["treasurer"]);
const approver = person("anna-approver", ["approver"]);

async function call(
  handler: Handler,
  who: DashboardUser,
  method: string,
  path: string,
  opts: { params?: Record<string, string>; json?: unknown } = {},
) {
  session.user = who;
  session.cookie = company.id;
  const write = method !== "GET";
  const headers: Record<string, string> = write ? { origin: ORIGIN, "idempotency-key": randomUUID() } : {};
  if (opts.json !== undefined) headers["content-type"] = "application/json";
  const req = new NextRequest(`${ORIGIN}/api/treasury${path}`, {
    method,
    headers,
    body: opts.json === undefined ? undefined : JSON.stringify(opts.json),
  });
  const res = await handler(req, { params: Promise.resolve(opts.params ?? {}) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

/** Creates and submits a one-instruction NOK batch; returns its id and its approval request's id. */
async function submitted(amount: string, iban: string, e2e: string): Promise<{ batchId: string; approvalId: string }> {
  const created = await call(batchesRoute.POST as Handler, treasurer, "POST", "/payments/batches", {
    json: {
      company_id: company.id,
      currency: "NOK",
      instructions: [
        { amount, currency: "NOK", creditor_name: "Fjordkraft AS", creditor_iban: iban, end_to_end_id: e2e },
      ],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const batchId = String(created.body.id);
  const sub = await call(submitRoute.POST as Handler, treasurer, "POST", `/payments/batches/${batchId}/submit`, {
    params: { id: batchId },
  });
  expect(sub.status, JSON.stringify(sub.body)).toBe(202);
  const pending = await collectAll(client.listPendingApprovals({ companyId: company.id }, { pageSize: 1000 }));
  const approvalId = pending.find((p) => p.object_id === batchId)?.id;
  if (!approvalId) throw new Error("approval request not found");
  return { batchId, approvalId };
}

async function risk(batchId: string): Promise<BatchRisk> {
  const r = await call(riskRoute.GET as Handler, approver, "GET", `/payments/batches/${batchId}/risk`, {
    params: { id: batchId },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as unknown as BatchRisk;
}

beforeAll(async () => {
  api = await startServer({ port: 0, host: "127.0.0.1", data: "memory", seed: "demo", seedScale: 0.01, log: false });
  Object.assign(process.env, {
    TREASURY_API_BASE_URL: `${api.url}/public`,
    TREASURY_CLIENT_ID: DEMO_TREASURY_B.clientId,
    TREASURY_CLIENT_SECRET: DEMO_TREASURY_B.clientSecret,
    NEXTAUTH_SECRET: "risk-integration-test-secret-0123456789",
    NEXTAUTH_URL: ORIGIN,
    DASHBOARD_DATA_DIR: "memory",
    DASHBOARD_DEMO: "0",
    // Passkey step-up is tested on its own (lib/auth/step-up-rules.test.ts, e2e/passkeys.spec.ts).
    DASHBOARD_STEP_UP: "off",
  });
  client = createTreasuryClient({
    baseUrl: `${api.url}/public`,
    form: "B",
    clientId: DEMO_TREASURY_B.clientId,
    clientSecret: DEMO_TREASURY_B.clientSecret,
    scopes: DEMO_TREASURY_B.scopes,
    fetch: (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (init?.method === "POST" && url.includes("/approve")) upstreamApprovals.push(url);
      return fetch(input, init);
    },
  });
  (globalThis as { __treasuryClient?: TreasuryClient }).__treasuryClient = client;
  // The default approval policy is stated in EUR: with no FX rate it would fail closed (two approvals).
  await seedDemoRates(await dashboardDb(), new Date().toISOString().slice(0, 10));
  const c = api.fixtures?.companies.find((x) => x.name === "Nordlys Norge AS");
  if (!c) throw new Error("demo seed did not run");
  company = { id: c.id, name: c.name };
}, 120_000);
afterAll(async () => {
  await api?.close();
});

describe("high-risk signals need an acknowledgement to approve", () => {
  it(
    "flags a duplicate, refuses the approval without acknowledgement, accepts it with one and audits the " + "codes",
    async () => {
      const iban = "NO93 8601 1117 947";
      await submitted("1234.50", iban, `RISK-A-${Date.now()}`);
      const second = await submitted("1234.50", iban, `RISK-B-${Date.now()}`);

      const r = await risk(second.batchId);
      const dup = r.signals.find((s) => s.code === "possible_duplicate");
      expect(dup).toMatchObject({ severity: "high", instruction: 0, creditor_iban: "NO9386011117947" });
      expect(JSON.stringify(dup?.evidence)).toContain("same_iban_and_amount");
      expect(r.requires_acknowledgement).toContain("possible_duplicate");
      expect(r.debtor_account).toMatchObject({ currency: "NOK" });

      const history = await call(
        payeeRoute.GET as Handler,
        approver,
        "GET",
        `/payments/batches/${second.batchId}/payee-history?iban=${encodeURIComponent(iban)}`,
        { params: { id: second.batchId } },
      );
      expect(history.status).toBe(200);
      // The earlier batch's payment; the batch under review is left out of its own history.
      const payments = history.body.payments as { batch_id: string }[];
      expect(payments.length).toBeGreaterThanOrEqual(1);
      expect(payments.some((p) => p.batch_id === second.batchId)).toBe(false);

      const before = upstreamApprovals.length;
      const refused = await call(
        approveRoute.POST as Handler,
        approver,
        "POST",
        `/approvals/${second.approvalId}/approve`,
        {
          params: { id: second.approvalId },
        },
      );
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        error: "conflict",
        details: { reason: "acknowledgement_required", missing: expect.arrayContaining(["possible_duplicate"]) },
      });
      expect(String(refused.body.message)).toContain("possible duplicate");
      expect(upstreamApprovals.length).toBe(before);

      const bad = await call(
        approveRoute.POST as Handler,
        approver,
        "POST",
        `/approvals/${second.approvalId}/approve`,
        {
          params: { id: second.approvalId },
          json: { acknowledged_signals: ["not_a_signal"] },
        },
      );
      expect(bad.status).toBe(400);
      expect(String(bad.body.message)).toContain("acknowledged_signals");

      const ok = await call(approveRoute.POST as Handler, approver, "POST", `/approvals/${second.approvalId}/approve`, {
        params: { id: second.approvalId },
        json: { acknowledged_signals: r.requires_acknowledgement },
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(upstreamApprovals.length).toBe(before + 1);

      const audit = await listAudit(await dashboardDb(), {
        companyIds: null,
        action: "approval.approve",
        objectIds: [second.approvalId],
        limit: 10,
      });
      expect(audit).toHaveLength(1);
      expect(audit[0]?.userEmail).toBe(approver.email);
      expect(audit[0]?.details).toMatchObject({
        batch_id: second.batchId,
        acknowledged_signals: expect.arrayContaining(["possible_duplicate"]),
        signals: expect.arrayContaining(["possible_duplicate"]),
      });
    },
  );

  it("flags a batch above the debtor account's available balance as insufficient funds", async () => {
    const big = await submitted("999999999.00", "NO93 8601 1117 947", `RISK-C-${Date.now()}`);
    const r = await risk(big.batchId);
    const funds = r.signals.find((s) => s.code === "insufficient_funds");
    expect(funds).toMatchObject({ severity: "high", instruction: null });
    expect(funds?.evidence).toMatchObject({ reason: "above_available", batch_total: "999999999" });
    expect(r.debtor_account?.available_balance).not.toBeNull();
    expect(r.requires_acknowledgement).toContain("insufficient_funds");
  });
});
