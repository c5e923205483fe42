/**
 * Company and tenant isolation (docs/treasury-api.md#isolation; docs/architecture.md#isolation:
 * objects outside the caller's scope are 404), table-driven:
 *
 * - every repository function that reads or writes scoped data is called with
 *   company A's ids under another company's scope and under another tenant's
 *   scope, and must return nothing (or 404) and change nothing; the same call
 *   under company A's own scope must find the data, so an empty answer is not
 *   an accident of the fixture;
 * - every id route is called with company A's ids by a caller narrowed to
 *   another company and by a caller of another tenant, and must answer 404;
 * - the reconciliation matcher never pairs a transaction with another
 *   company's or another tenant's instruction.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { queryRows } from "../db/client";
import * as s from "../db/schema";
import type { DataScope } from "../lib/scope";
import { ApiError } from "../lib/errors";
import * as ledger from "../db/repos/ledger";
import * as payments from "../db/repos/payments";
import * as approvals from "../db/repos/approvals";
import * as recon from "../db/repos/reconciliation";
import * as unmatched from "../db/repos/unmatched";
import * as org from "../db/repos/organization";
import * as hooks from "../db/repos/webhooks";
import { cashflowDaily, forecast, positionsDaily } from "../domain/reporting";
import { proposeMatchesForTransactions } from "../domain/matching";
import { hashSecret } from "../lib/secrets";
import {
  ALL_SCOPES,
  CLIENTS,
  IDS,
  createHarness,
  daysAgo,
  type ClientKey,
  type Harness,
  insertCompletedBatch,
  insertWebhookEvent,
} from "./harness";
import { clientToken } from "./loopback";
import { ephemeralSecretKey } from "../lib/secret-box";

let h: Harness;

/** A company of tenant 1 with no data at all: "another company" for scoped reads. */
const COMPANY_E = "20000000-0000-4000-8000-00000000000e";
/** A koncern whose only member is company A. */
const KONCERN_A = "30000000-0000-4000-8000-0000000000a1";
/** Company A's debit transaction on account A1 (fixture: odd days ago are debits). */
const TX_A = "60000000-0000-4000-8000-000000000001";

let eOnlyToken = "";
const ids = { batch: "", instruction: "", approval: "", match: "", event: "", webhook: "", delivery: "" };

const OWN: DataScope = { tenantId: IDS.tenant, companyIds: [IDS.companyA] };
const SCOPES: Record<string, DataScope> = {
  "another company of the tenant": { tenantId: IDS.tenant, companyIds: [COMPANY_E] },
  "another tenant (whole tenant)": { tenantId: IDS.tenant2, companyIds: null },
  "another tenant claiming company A": { tenantId: IDS.tenant2, companyIds: [IDS.companyA] },
};
const OWNER = { clientId: CLIENTS.fullB.id, tenantId: IDS.tenant };
const OWNERS: Record<string, hooks.EndpointOwner> = {
  "another client of the tenant": { clientId: CLIENTS.partnerA.id, tenantId: IDS.tenant },
  "another tenant's client": { clientId: CLIENTS.otherB.id, tenantId: IDS.tenant2 },
  "the owning client under another tenant": { clientId: CLIENTS.fullB.id, tenantId: IDS.tenant2 },
};

const PAGE = { limit: 1000, offset: 0 };
const RANGE = { fromDate: daysAgo(45), toDate: daysAgo(0) };

/** A 404 counts as "nothing"; any other error fails the test. */
async function rowsOrNothing(p: Promise<unknown>): Promise<unknown[]> {
  try {
    const out = await p;
    if (Array.isArray(out)) return out;
    if (out && typeof out === "object" && "rows" in out) return (out as { rows: unknown[] }).rows;
    if (out && typeof out === "object" && "companies" in out) return (out as { companies: unknown[] }).companies;
    return [out];
  } catch (err) {
    if (err instanceof ApiError && err.code === "not_found") return [];
    throw err;
  }
}

beforeAll(async () => {
  h = await createHarness();
  const db = h.database.db;
  await db
    .insert(s.companies)
    .values({ id: COMPANY_E, tenantId: IDS.tenant, orgnr: "994039113", name: "Epsilon AS", country: "NO" });
  await db.insert(s.oauthClientCompanies).values({ clientId: CLIENTS.fullB.id, companyId: COMPANY_E });
  // A Form B client of tenant 1 with every scope, linked to company E only.
  const eOnly = { id: "50000000-0000-4000-8000-00000000000e", clientId: "test-e-only", secret: "test-secret-e-only" };
  await db.insert(s.oauthClients).values({
    id: eOnly.id,
    clientId: eOnly.clientId,
    secretHash: hashSecret(eOnly.secret),
    name: eOnly.clientId,
    form: "B",
    tenantId: IDS.tenant,
    allowedScopes: ALL_SCOPES.split(" "),
    writeApproved: true,
  });
  await db.insert(s.oauthClientCompanies).values({ clientId: eOnly.id, companyId: COMPANY_E });
  eOnlyToken = await clientToken(h.app, eOnly.clientId, eOnly.secret);
  await db.insert(s.koncerner).values({ id: KONCERN_A, tenantId: IDS.tenant, name: "Alpha only" });
  await db.insert(s.koncernMembers).values({ koncernId: KONCERN_A, companyId: IDS.companyA });

  const instruction = {
    amount: "1000.50",
    currency: "NOK",
    creditor_name: "Supplier AB",
    creditor_iban: "NO9386011117947",
    end_to_end_id: "ISO-A-1",
  };
  const created = await h.write("POST", "/payments/batches", {
    json: { company_id: IDS.companyA, currency: "NOK", instructions: [instruction] },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  ids.batch = ((await created.json()) as { id: string }).id;
  expect((await h.write("POST", `/payments/batches/${ids.batch}/submit`)).status).toBe(202);
  const [ins] = await db.select().from(s.paymentInstructions).where(eq(s.paymentInstructions.batchId, ids.batch));
  const [req] = await db.select().from(s.approvalRequests).where(eq(s.approvalRequests.objectId, ids.batch));
  if (!ins || !req) throw new Error("fixture: instruction or approval missing");
  ids.instruction = ins.id;
  ids.approval = req.id;
  ids.event = crypto.randomUUID();
  await db.insert(s.paymentStatusEvents).values({
    id: ids.event,
    tenantId: IDS.tenant,
    companyId: IDS.companyA,
    batchId: ids.batch,
    instructionId: ins.id,
    status: "pending",
    occurredAt: new Date().toISOString(),
  });
  ids.match = crypto.randomUUID();
  await db.insert(s.reconciliationMatches).values({
    id: ids.match,
    tenantId: IDS.tenant,
    companyId: IDS.companyA,
    paymentInstructionId: ins.id,
    transactionId: TX_A,
    state: "proposed",
    score: 80,
    scoreBreakdown: { amount: 100, date: 100, reference: 0, name: 100 },
  });
  const hook = await h.call("POST", "/webhooks", {
    client: "fullB",
    idem: true,
    json: { url: "http://127.0.0.1:9/hook", events: ["transaction.created"] },
  });
  expect(hook.status, await hook.clone().text()).toBe(201);
  ids.webhook = ((await hook.json()) as { id: string }).id;
  const eventId = crypto.randomUUID();
  ids.delivery = crypto.randomUUID();
  const now = new Date().toISOString();
  await insertWebhookEvent(db, eventId, now);
  await db
    .insert(s.webhookDeliveries)
    .values({ id: ids.delivery, eventId, endpointId: ids.webhook, status: "failed", attempts: 1, createdAt: now });
});
afterAll(async () => {
  await h?.close();
});

type ScopedRead = (scope: DataScope) => Promise<unknown>;

/** Every scoped repository read, called with company A's ids. */
const READS: Record<string, ScopedRead> = {
  "ledger.listAccounts": (sc) => ledger.listAccounts(h.database.db, sc, {}, PAGE, true),
  "ledger.getAccountRow": (sc) => ledger.getAccountRow(h.database.db, sc, IDS.accountA1),
  "ledger.listTransactions (account filter)": (sc) =>
    ledger.listTransactions(h.database.db, sc, { accountId: IDS.accountA1 }, PAGE, true),
  "ledger.countTransactions": async (sc) => {
    const n = await ledger.countTransactions(h.database.db, sc, { accountId: IDS.accountA1 });
    return n === 0 ? [] : [n];
  },
  "ledger.getTransaction": (sc) => ledger.getTransaction(h.database.db, sc, TX_A),
  "ledger.listBalances": (sc) => ledger.listBalances(h.database.db, sc, IDS.accountA1, {}, PAGE, true),
  "ledger.listCoverage": (sc) => ledger.listCoverage(h.database.db, sc, IDS.accountA1, {}, PAGE, true),
  "ledger.listIntraday": (sc) => ledger.listIntraday(h.database.db, sc, IDS.accountA1, {}, PAGE, true),
  "payments.listBatches": (sc) => payments.listBatches(h.database.db, sc, {}, PAGE, true),
  "payments.getBatchRow": (sc) => payments.getBatchRow(h.database.db, sc, ids.batch),
  "payments.listBatchInstructions": (sc) =>
    payments.listBatchInstructions(h.database.db, sc, ids.batch, {}, PAGE, true),
  "payments.getInstruction": (sc) => payments.getInstruction(h.database.db, sc, ids.instruction),
  "payments.listStatusEvents": (sc) => payments.listStatusEvents(h.database.db, sc, { batchId: ids.batch }, PAGE, true),
  "approvals.listPending": (sc) => approvals.listPending(h.database.db, sc, PAGE, true),
  "approvals.getApproval": (sc) => approvals.getApproval(h.database.db, sc, ids.approval),
  "reconciliation.listMatches": (sc) => recon.listMatches(h.database.db, sc, {}, PAGE, true),
  "reconciliation.getMatch": (sc) => recon.getMatch(h.database.db, sc, ids.match),
  // Company A's debit TX_A has only a proposed match, so it is unmatched (the fixture's instruction is not settled).
  "unmatched.listUnmatched (debits)": async (sc) =>
    (await unmatched.listUnmatched(h.database.db, sc, { kind: "transaction" }, PAGE, true)).rows.filter(
      (r) => r.id === TX_A,
    ),
  "organization.listCompanies (company A)": async (sc) =>
    (await org.listCompanies(h.database.db, sc, PAGE)).rows.filter((c) => c.id === IDS.companyA),
  "organization.getCompany": (sc) => org.getCompany(h.database.db, sc, IDS.companyA),
  "organization.listKoncerner (company A's koncern)": async (sc) =>
    (await org.listKoncerner(h.database.db, sc, PAGE)).rows.filter((k) => k.id === KONCERN_A),
  "organization.getKoncern": (sc) => org.getKoncern(h.database.db, sc, KONCERN_A),
  "organization.koncernBreakdown": (sc) => org.koncernBreakdown(h.database.db, sc, KONCERN_A),
  "reporting.cashflowDaily (NOK)": (sc) => cashflowDaily(h.database.db, sc, { ...RANGE, currency: "NOK" }, PAGE),
  "reporting.positionsDaily (NOK)": (sc) => positionsDaily(h.database.db, sc, { ...RANGE, currency: "NOK" }, PAGE),
  "reporting.forecast (NOK)": (sc) =>
    forecast(
      h.database.db,
      sc,
      { fromDate: daysAgo(-1), toDate: daysAgo(-3), currency: "NOK", today: daysAgo(0) },
      PAGE,
    ),
};

describe("repository reads: another company's or tenant's scope sees nothing", () => {
  for (const [name, read] of Object.entries(READS)) {
    it(`${name}: finds company A's data under its own scope`, async () => {
      expect((await rowsOrNothing(read(OWN))).length).toBeGreaterThan(0);
    });
    for (const [who, scope] of Object.entries(SCOPES)) {
      // Tenant 2 as a whole has NOK data of its own (company D); the NOK reports and lists stay correct only if none
      // is company A's.
      if (
        who === "another tenant (whole tenant)" &&
        /listAccounts|listBatches|listPending|listMatches|reporting\./.test(name)
      )
        continue;
      it(`${name}: ${who} → nothing`, async () => {
        expect(await rowsOrNothing(read(scope))).toEqual([]);
      });
    }
  }
});

describe("repository writes: another company's or tenant's scope finds nothing and changes nothing", () => {
  for (const [who, scope] of Object.entries(SCOPES)) {
    it(`${who}: submit, approve, reject, confirm, reject and manual match are 404`, async () => {
      const db = h.database.db;
      const decision = {
        clientId: CLIENTS.otherB.id,
        approver: "mallory",
        reason: null,
        bankSpeed: "instant" as const,
      };
      const attempts = [
        payments.submitBatch(db, scope, ids.batch, { byCurrency: {}, fallback: "100000" }),
        approvals.decide(db, scope, ids.approval, { kind: "approve", ...decision }),
        approvals.decide(db, scope, ids.approval, { kind: "reject", ...decision }),
        recon.decideMatch(db, scope, ids.match, { kind: "confirm", clientId: CLIENTS.otherB.id }),
        recon.decideMatch(db, scope, ids.match, { kind: "reject", clientId: CLIENTS.otherB.id }),
        unmatched.createManualMatch(db, scope, {
          instruction_id: ids.instruction,
          transaction_id: TX_A,
          clientId: CLIENTS.otherB.id,
        }),
      ];
      for (const attempt of attempts) await expect(attempt).rejects.toMatchObject({ code: "not_found" });
      await expectUnchanged();
    });
  }
});

describe("webhook repository: another owner sees nothing", () => {
  it("the owner finds its endpoint and delivery", async () => {
    expect((await hooks.getEndpointRow(h.database.db, OWNER, ids.webhook)).id).toBe(ids.webhook);
    expect((await hooks.listDeliveries(h.database.db, OWNER, ids.webhook, {}, PAGE)).rows.map((d) => d.id)).toEqual([
      ids.delivery,
    ]);
    expect((await hooks.getDelivery(h.database.db, OWNER, ids.delivery)).id).toBe(ids.delivery);
  });
  for (const [who, o] of Object.entries(OWNERS)) {
    it(`${who} → nothing, no change`, async () => {
      const db = h.database.db;
      expect((await hooks.listEndpoints(db, o, PAGE)).rows.filter((e) => e.id === ids.webhook)).toEqual([]);
      expect(await rowsOrNothing(hooks.getEndpointRow(db, o, ids.webhook))).toEqual([]);
      expect(await rowsOrNothing(hooks.listDeliveries(db, o, ids.webhook, {}, PAGE))).toEqual([]);
      expect(await rowsOrNothing(hooks.getDelivery(db, o, ids.delivery))).toEqual([]);
      await expect(
        hooks.patchEndpoint(db, o, ids.webhook, { active: false }, ephemeralSecretKey()),
      ).rejects.toMatchObject({ code: "not_found" });
      await expect(hooks.deleteEndpoint(db, o, ids.webhook)).rejects.toMatchObject({ code: "not_found" });
      await expectUnchanged();
    });
  }
});

/** Company A's objects are exactly as the fixture left them. */
async function expectUnchanged(): Promise<void> {
  const [row] = await queryRows<{
    batch: string;
    approval: string;
    approved: number;
    match: string;
    active: boolean;
    deliveries: number;
  }>(
    h.database.db,
    sql`select (select status from payment_batches where id = ${ids.batch}) as batch,
               (select state from approval_requests where id = ${ids.approval}) as approval,
               (select approved_count from approval_requests where id = ${ids.approval}) as approved,
               (select state from reconciliation_matches where id = ${ids.match}) as match,
               (select active from webhook_endpoints where id = ${ids.webhook}) as active,
               (select count(*)::int from webhook_deliveries where endpoint_id = ${ids.webhook}) as deliveries`,
  );
  expect(row).toEqual({
    batch: "pending_approval",
    approval: "pending",
    approved: 0,
    match: "proposed",
    active: true,
    deliveries: 1,
  });
}

/** Every route that takes an id, with company A's object. `json` is sent with an Idempotency-Key. */
function idRoutes(): { method: string; path: string; json?: unknown }[] {
  return [
    { method: "GET", path: `/accounts/${IDS.accountA1}` },
    { method: "GET", path: `/accounts/${IDS.accountA1}/transactions` },
    { method: "GET", path: `/accounts/${IDS.accountA1}/balances` },
    { method: "GET", path: `/accounts/${IDS.accountA1}/coverage` },
    { method: "GET", path: `/accounts/${IDS.accountA1}/intraday` },
    { method: "GET", path: `/transactions/${TX_A}` },
    { method: "GET", path: `/companies/${IDS.companyA}` },
    { method: "GET", path: `/koncerner/${KONCERN_A}` },
    { method: "GET", path: `/koncerner/${KONCERN_A}/breakdown` },
    { method: "GET", path: `/payments/batches/${ids.batch}` },
    { method: "POST", path: `/payments/batches/${ids.batch}/submit`, json: {} },
    { method: "GET", path: `/payments/batches/${ids.batch}/instructions` },
    { method: "GET", path: `/payments/instructions/${ids.instruction}` },
    { method: "GET", path: `/approvals/${ids.approval}` },
    { method: "POST", path: `/approvals/${ids.approval}/approve`, json: { approver: "mallory" } },
    { method: "POST", path: `/approvals/${ids.approval}/reject`, json: { approver: "mallory" } },
    { method: "GET", path: `/reconciliation/matches/${ids.match}` },
    { method: "POST", path: `/reconciliation/matches/${ids.match}/confirm`, json: {} },
    { method: "POST", path: `/reconciliation/matches/${ids.match}/reject`, json: {} },
    // The manual-match extension names both sides in its body.
    {
      method: "POST",
      path: "/reconciliation/matches",
      json: { instruction_id: ids.instruction, transaction_id: TX_A },
    },
    { method: "GET", path: `/webhooks/${ids.webhook}` },
    { method: "PATCH", path: `/webhooks/${ids.webhook}`, json: { active: false } },
    { method: "DELETE", path: `/webhooks/${ids.webhook}`, json: undefined },
    { method: "GET", path: `/webhooks/${ids.webhook}/deliveries` },
    { method: "POST", path: `/webhooks/${ids.webhook}/test`, json: {} },
  ];
}

/**
 * Callers that must not see company A's objects: client (or token) and X-Company-ID; `companyRoutesOnly` skips routes
 * the header does not narrow.
 */
const OUTSIDERS: {
  who: string;
  client?: ClientKey;
  token?: () => string;
  company?: string;
  companyRoutesOnly?: boolean;
}[] = [
  {
    who: "company A's client narrowed by X-Company-ID to another company",
    client: "fullB",
    company: COMPANY_E,
    companyRoutesOnly: true,
  },
  { who: "a client of the tenant linked only to another company", token: () => eOnlyToken, company: COMPANY_E },
  { who: "another tenant's client", client: "otherB", company: IDS.companyD },
];
const NOT_COMPANY_SCOPED = /^\/(companies|koncerner|webhooks)\//;

describe("id routes: 404 for another company and another tenant", () => {
  it("company A's own caller reaches every id route (so a 404 below is the scope, not a bad path)", async () => {
    for (const r of idRoutes()) {
      if (r.method !== "GET") continue;
      const res = await h.call(r.method, r.path, { client: "fullB", company: IDS.companyA });
      expect(res.status, `${r.method} ${r.path}`).toBe(200);
    }
  });
  for (const o of OUTSIDERS) {
    it(`${o.who}: every id route answers 404 and changes nothing`, async () => {
      for (const r of idRoutes()) {
        if (o.companyRoutesOnly && NOT_COMPANY_SCOPED.test(r.path)) continue;
        const write = r.method !== "GET";
        const res = await h.call(r.method, r.path, {
          client: o.client,
          token: o.token?.(),
          company: o.company,
          json: r.json,
          idem: write ? true : undefined,
        });
        expect(res.status, `${r.method} ${r.path}: ${await res.clone().text()}`).toBe(404);
      }
      await expectUnchanged();
    });
  }
});

describe("reconciliation matcher: never pairs across companies or tenants", () => {
  it("proposes only company A's instruction for company A's transaction", async () => {
    const db = h.database.db;
    const [tx] = await db.select().from(s.transactions).where(eq(s.transactions.id, TX_A));
    if (!tx) throw new Error("fixture transaction missing");
    // Three settled instructions that match the transaction in every respect (amount, end-to-end id, name, date):
    // company A's, company B's (same tenant) and company D's (tenant 2). B's is also linked by the bank to the
    // transaction.
    const e2e = tx.endToEndId ?? "";
    const make = async (tenantId: string, companyId: string, linked: boolean) => {
      const batchId = crypto.randomUUID();
      await insertCompletedBatch(db, {
        id: batchId,
        tenantId,
        companyId,
        currency: tx.currency,
        totalAmount: tx.amount,
        requestedExecutionDate: tx.bookedDate,
      });
      const id = crypto.randomUUID();
      await db.insert(s.paymentInstructions).values({
        id,
        batchId,
        tenantId,
        companyId,
        position: 0,
        amount: tx.amount,
        currency: tx.currency,
        creditorName: tx.counterpartyName,
        creditorIban: "NO9386011117947",
        endToEndId: e2e,
        status: "settled",
        transactionId: linked ? tx.id : null,
      });
      return id;
    };
    const own = await make(IDS.tenant, IDS.companyA, false);
    await make(IDS.tenant, IDS.companyB, true);
    await make(IDS.tenant2, IDS.companyD, false);
    await db.transaction((t) => proposeMatchesForTransactions(t, [tx.id]));
    const proposed = await db
      .select()
      .from(s.reconciliationMatches)
      .where(eq(s.reconciliationMatches.transactionId, tx.id));
    expect(
      proposed.filter((m) => m.id !== ids.match).map((m) => [m.paymentInstructionId, m.companyId, m.tenantId]),
    ).toEqual([[own, IDS.companyA, IDS.tenant]]);
  });
});
