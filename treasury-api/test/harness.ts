/**
 * Test harness: the real app on an in-memory PGlite with a small, fixed
 * fixture (two tenants, companies, OAuth clients of both forms, accounts and
 * bank data). One harness per test file (PGlite takes seconds to start).
 * Requests go through `app.request` — the same code path as over HTTP.
 */
import { sql } from "drizzle-orm";
import { createApp, type TreasuryApp } from "../app";
import type { AppConfig } from "../config";
import { openDatabase, queryRows, type Database } from "../db/client";
import * as s from "../db/schema";
import { hashSecret } from "../lib/secrets";
import { clientToken } from "./loopback";

export const IDS = {
  tenant: "10000000-0000-4000-8000-000000000001",
  tenant2: "10000000-0000-4000-8000-000000000002",
  companyA: "20000000-0000-4000-8000-00000000000a",
  companyB: "20000000-0000-4000-8000-00000000000b",
  companyC: "20000000-0000-4000-8000-00000000000c", // tenant 1, not linked to the Form B clients
  companyD: "20000000-0000-4000-8000-00000000000d", // tenant 2
  koncern: "30000000-0000-4000-8000-000000000001",
  accountA1: "40000000-0000-4000-8000-0000000000a1", // NOK, company A
  accountA2: "40000000-0000-4000-8000-0000000000a2", // EUR, company A
  accountB1: "40000000-0000-4000-8000-0000000000b1", // SEK, company B
  accountC1: "40000000-0000-4000-8000-0000000000c1", // DKK, company C
  accountD1: "40000000-0000-4000-8000-0000000000d1", // NOK, tenant 2
} as const;

export const CLIENTS = {
  fullB: {
    id: "50000000-0000-4000-8000-000000000001",
    clientId: "test-full-b",
    secret: "test-secret-full-b",
    form: "B" as const,
  },
  readB: {
    id: "50000000-0000-4000-8000-000000000002",
    clientId: "test-read-b",
    secret: "test-secret-read-b",
    form: "B" as const,
  },
  partnerA: {
    id: "50000000-0000-4000-8000-000000000003",
    clientId: "test-partner-a",
    secret: "test-secret-partner-a",
    form: "A" as const,
  },
  otherB: {
    id: "50000000-0000-4000-8000-000000000004",
    clientId: "test-other-b",
    secret: "test-secret-other-b",
    form: "B" as const,
  },
};
export type ClientKey = keyof typeof CLIENTS;

export const ALL_SCOPES =
  "read:ledger write:ledger read:reporting read:forecast read:payments write:payments approve:payments " +
  "read:reconciliation write:reconciliation admin:public_api";
export const READ_SCOPES = "read:ledger read:reporting read:forecast read:payments read:reconciliation";

/** Valid IBANs of five countries (Norway, Sweden, Denmark, the UK, Germany) for creditor fields. */
export const TEST_IBANS = [
  "NO9386011117947",
  "SE4550000000058398257466",
  "DK5000400440116243",
  "GB82WEST12345698765432",
  "DE89370400440532013000",
];

/** Days before today (UTC) as YYYY-MM-DD. */
export function daysAgo(n: number): string {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
}

/** The fixture's tenants, companies, koncern and OAuth clients with their company and tenant grants. */
async function insertOrganization(db: Database["db"]): Promise<void> {
  await db.insert(s.tenants).values([
    { id: IDS.tenant, name: "Test Group" },
    { id: IDS.tenant2, name: "Other Group" },
  ]);
  await db.insert(s.companies).values([
    { id: IDS.companyA, tenantId: IDS.tenant, orgnr: "923609016", name: "Alpha AS", country: "NO" },
    { id: IDS.companyB, tenantId: IDS.tenant, orgnr: "5560360793", name: "Beta AB", country: "SE" },
    { id: IDS.companyC, tenantId: IDS.tenant, orgnr: "10150817", name: "Gamma ApS", country: "DK" },
    { id: IDS.companyD, tenantId: IDS.tenant2, orgnr: "982463718", name: "Delta AS", country: "NO" },
  ]);
  await db.insert(s.koncerner).values({ id: IDS.koncern, tenantId: IDS.tenant, name: "Test Koncern" });
  await db.insert(s.koncernMembers).values([
    { koncernId: IDS.koncern, companyId: IDS.companyA },
    { koncernId: IDS.koncern, companyId: IDS.companyB },
    { koncernId: IDS.koncern, companyId: IDS.companyC },
  ]);
  const clientRows = [
    { c: CLIENTS.fullB, scopes: ALL_SCOPES, write: true, tenant: IDS.tenant },
    { c: CLIENTS.readB, scopes: READ_SCOPES, write: false, tenant: IDS.tenant },
    { c: CLIENTS.partnerA, scopes: ALL_SCOPES, write: true, tenant: IDS.tenant },
    { c: CLIENTS.otherB, scopes: ALL_SCOPES, write: true, tenant: IDS.tenant2 },
  ];
  await db.insert(s.oauthClients).values(
    clientRows.map(({ c, scopes, write, tenant }) => ({
      id: c.id,
      clientId: c.clientId,
      secretHash: hashSecret(c.secret),
      name: c.clientId,
      form: c.form,
      tenantId: tenant,
      allowedScopes: scopes.split(" "),
      writeApproved: write,
    })),
  );
  await db.insert(s.oauthClientCompanies).values([
    { clientId: CLIENTS.fullB.id, companyId: IDS.companyA },
    { clientId: CLIENTS.fullB.id, companyId: IDS.companyB },
    { clientId: CLIENTS.readB.id, companyId: IDS.companyA },
    { clientId: CLIENTS.otherB.id, companyId: IDS.companyD },
  ]);
  await db.insert(s.oauthClientTenants).values({ clientId: CLIENTS.partnerA.id, tenantId: IDS.tenant });
}

/** The fixture's five accounts: two of Alpha AS (NOK, EUR), one each of Beta AB, Gamma ApS and Delta AS. */
const FIXTURE_ACCOUNTS = [
  {
    id: IDS.accountA1,
    company: IDS.companyA,
    tenant: IDS.tenant,
    iban: "NO9386011117947",
    bank: "DNBANOKK",
    bankName: "DNB Bank",
    currency: "NOK",
    name: "Alpha NOK operating",
  },
  {
    id: IDS.accountA2,
    company: IDS.companyA,
    tenant: IDS.tenant,
    iban: "NO8330001234567",
    bank: "NDEANOKK",
    bankName: "Nordea Bank Norge",
    currency: "EUR",
    name: "Alpha EUR",
  },
  {
    id: IDS.accountB1,
    company: IDS.companyB,
    tenant: IDS.tenant,
    iban: "SE4550000000058398257466",
    bank: "ESSESESS",
    bankName: "SEB",
    currency: "SEK",
    name: "Beta SEK",
  },
  {
    id: IDS.accountC1,
    company: IDS.companyC,
    tenant: IDS.tenant,
    iban: "DK5000400440116243",
    bank: "DABADKKK",
    bankName: "Danske Bank",
    currency: "DKK",
    name: "Gamma DKK",
  },
  {
    id: IDS.accountD1,
    company: IDS.companyD,
    tenant: IDS.tenant2,
    iban: "NO7112345678903",
    bank: "DNBANOKK",
    bankName: "DNB Bank",
    currency: "NOK",
    name: "Delta NOK",
  },
];

/** The fixture's rows of one ledger table (transactions, closing balances, coverage days, intraday points). */
interface FixtureLedger {
  txRows: (typeof s.transactions.$inferInsert)[];
  balRows: (typeof s.balanceSnapshots.$inferInsert)[];
  covRows: (typeof s.coverageDays.$inferInsert)[];
  intraRows: (typeof s.intradayPoints.$inferInsert)[];
}

/**
 * The fixture's ledger rows, relative to today (UTC): per account 40 days of alternating credit/debit bookings
 * with their closing balance and coverage (day 5 missing, day 6 partial), and yesterday's 96 intraday points.
 * Amounts are decimal strings.
 */
function fixtureLedger(): FixtureLedger {
  const txRows: (typeof s.transactions.$inferInsert)[] = [];
  const balRows: (typeof s.balanceSnapshots.$inferInsert)[] = [];
  const covRows: (typeof s.coverageDays.$inferInsert)[] = [];
  const intraRows: (typeof s.intradayPoints.$inferInsert)[] = [];
  FIXTURE_ACCOUNTS.forEach((a, ai) => {
    let balance = 100000;
    for (let i = 39; i >= 0; i--) {
      const date = daysAgo(i);
      const credit = i % 2 === 0;
      const amount = 1000 + i * 10 + ai;
      balance += credit ? amount : -amount;
      const n = String(i).padStart(2, "0");
      txRows.push({
        id: `60000000-0000-4000-8${ai}00-0000000000${n}`,
        tenantId: a.tenant,
        companyId: a.company,
        accountId: a.id,
        amount: `${amount}.50`,
        currency: a.currency,
        direction: credit ? "credit" : "debit",
        bookedDate: date,
        bookedAt: `${date}T10:00:00Z`,
        valueDate: date,
        valueAt: `${date}T10:00:00Z`,
        counterpartyName: credit ? "Customer Oy" : "Supplier AB",
        remittance: `INV-${ai}${n}`,
        endToEndId: `E2E-${ai}-${n}`,
        source: "api",
      });
      balRows.push({
        id: `70000000-0000-4000-8${ai}00-0000000000${n}`,
        tenantId: a.tenant,
        companyId: a.company,
        accountId: a.id,
        balanceType: "closing_booked",
        asOfDate: date,
        balance: `${balance}.00`,
        currency: a.currency,
      });
      covRows.push({
        id: `80000000-0000-4000-8${ai}00-0000000000${n}`,
        tenantId: a.tenant,
        companyId: a.company,
        accountId: a.id,
        date,
        source: "camt.053",
        completeness: i === 5 ? "missing" : i === 6 ? "partial" : "complete",
      });
    }
    for (let q = 0; q < 96; q++) {
      const ts = new Date(`${daysAgo(1)}T00:00:00Z`);
      ts.setUTCMinutes(q * 15);
      intraRows.push({
        id: `90000000-0000-4000-8${ai}00-0000000${String(q).padStart(5, "0")}`,
        tenantId: a.tenant,
        companyId: a.company,
        accountId: a.id,
        timestamp: ts.toISOString(),
        balance: `${100000 + q}.25`,
        currency: a.currency,
        balanceType: "interim_booked",
      });
    }
  });
  return { txRows, balRows, covRows, intraRows };
}

/** Inserts the fixed fixture. Transactions: 40 per account over the last 40 days, alternating credit/debit. */
export async function insertFixture(database: Database): Promise<void> {
  const db = database.db;
  await insertOrganization(db);
  await db.insert(s.accounts).values(
    FIXTURE_ACCOUNTS.map((a) => ({
      id: a.id,
      tenantId: a.tenant,
      companyId: a.company,
      bankId: a.bank,
      externalRef: a.iban,
      name: a.name,
      currency: a.currency,
      bankName: a.bankName,
    })),
  );
  const { txRows, balRows, covRows, intraRows } = fixtureLedger();
  await db.insert(s.transactions).values(txRows);
  await db.insert(s.balanceSnapshots).values(balRows);
  await db.insert(s.coverageDays).values(covRows);
  await db.insert(s.intradayPoints).values(intraRows);
  await db.execute(sql`select 1`);
}

export interface Harness {
  app: TreasuryApp;
  database: Database;
  /** Fetches (and caches) a token for a client; `scope` narrows it. */
  token(client: ClientKey, scope?: string): Promise<string>;
  /** One request through the app. `json` sets the body and content type. */
  call(method: string, path: string, opts?: CallOptions): Promise<Response>;
  /**
   * The tests' most common request: `call` as the full Form B client (`fullB`) for company A with a fresh
   * Idempotency-Key; `opts` adds to or overrides any of the three.
   */
  write(method: string, path: string, opts?: CallOptions): Promise<Response>;
  close(): Promise<void>;
}

export interface CallOptions {
  client?: ClientKey;
  scope?: string;
  token?: string;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string;
  /** Adds X-Company-ID. */
  company?: string;
  /** Adds an Idempotency-Key (random when true). */
  idem?: string | true;
}

const DAY_MS = 86_400_000;
/**
 * A new harness closer than this to UTC midnight waits for the next day (a test file runs well within the rest of a
 * day).
 */
export const MIDNIGHT_GUARD_MS = 3 * 60_000;

/**
 * Waits out a UTC midnight that is less than {@link MIDNIGHT_GUARD_MS} away, so that the
 * fixture's dates (`daysAgo`), the server's "today" (bank bookings, report defaults) and the
 * test's own expectations fall on one UTC day for the whole file. Faking `Date` instead
 * would also move PGlite's clock (emscripten reads `Date.now()`) and hang its shutdown,
 * and a real PostgreSQL's `now()` would not follow it at all.
 * @returns the milliseconds waited
 */
export async function awayFromMidnight(now: number = Date.now()): Promise<number> {
  const left = DAY_MS - (now % DAY_MS);
  if (left >= MIDNIGHT_GUARD_MS) return 0;
  const wait = left + 1000;
  await new Promise((resolve) => setTimeout(resolve, wait));
  return wait;
}

/**
 * The id of the approval request a submitted batch opened.
 * @throws Error when the batch has none (it was not submitted)
 */
export async function approvalIdOf(db: Database["db"], batchId: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(db, sql`select id from approval_requests where object_id = ${batchId}`);
  if (!row) throw new Error(`no approval request for batch ${batchId}`);
  return row.id;
}

/**
 * A batch created, submitted and approved through the API by the full client (`fullB`, initiator
 * maker@example.com) in `company` (default company A): what a batch is just before the bank takes it.
 * @param batch.instructions each instruction; `currency` and `creditor_iban` default to the batch's currency and
 *   NO8330001234567
 * @returns the batch id
 * @throws Error naming the step whose answer was not 201 / 202 / 200, with the API's body
 */
export async function approvedBatchVia(
  h: Harness,
  batch: {
    currency: string;
    company?: string;
    debtorAccountId?: string;
    instructions: ({ amount: string; creditor_name: string; end_to_end_id: string } & Record<string, unknown>)[];
  },
): Promise<string> {
  const company = batch.company ?? IDS.companyA;
  const step = async (what: string, res: Promise<Response>, status: number): Promise<Response> => {
    const r = await res;
    if (r.status !== status) throw new Error(`${what}: ${r.status} instead of ${status}: ${await r.text()}`);
    return r;
  };
  const created = await step(
    "create",
    h.call("POST", "/payments/batches", {
      client: "fullB",
      company,
      idem: true,
      json: {
        company_id: company,
        currency: batch.currency,
        initiator: "maker@example.com",
        ...(batch.debtorAccountId ? { debtor_account_id: batch.debtorAccountId } : {}),
        instructions: batch.instructions.map((i) => ({
          currency: batch.currency,
          creditor_iban: "NO8330001234567",
          ...i,
        })),
      },
    }),
    201,
  );
  const batchId = ((await created.json()) as { id: string }).id;
  await step(
    "submit",
    h.call("POST", `/payments/batches/${batchId}/submit`, { client: "fullB", company, idem: true }),
    202,
  );
  const approvalId = await approvalIdOf(h.database.db, batchId);
  await step("approve", h.call("POST", `/approvals/${approvalId}/approve`, { client: "fullB", idem: true }), 200);
  return batchId;
}

/**
 * Inserts a `transaction.created` webhook event with an empty payload for tenant 1, company A, dispatched and created
 * at `at` (an ISO instant), under the caller's `id`: the event a test's webhook delivery rows hang on.
 */
export async function insertWebhookEvent(db: Database["db"], id: string, at: string): Promise<void> {
  await db.insert(s.webhookEvents).values({
    id,
    tenantId: IDS.tenant,
    companyId: IDS.companyA,
    type: "transaction.created",
    payload: {},
    dispatchedAt: at,
    createdAt: at,
  });
}

type TransactionInsert = typeof s.transactions.$inferInsert;

/**
 * A `transactions` row as the tests insert it: booked and valued on `date` (`YYYY-MM-DD`) at 12:00 UTC, in NOK on
 * company A's account A1 of the test tenant, source "test"; `row` gives the id, amount and direction and overrides
 * any default (account, company, currency, texts, source).
 */
export function noonTransaction(
  date: string,
  row: Pick<TransactionInsert, "id" | "amount" | "direction"> & Partial<TransactionInsert>,
): TransactionInsert {
  return {
    tenantId: IDS.tenant,
    companyId: IDS.companyA,
    accountId: IDS.accountA1,
    currency: "NOK",
    bookedDate: date,
    bookedAt: `${date}T12:00:00Z`,
    valueDate: date,
    valueAt: `${date}T12:00:00Z`,
    source: "test",
    ...row,
  };
}

type BatchInsert = typeof s.paymentBatches.$inferInsert;

/**
 * Inserts a batch straight into the database, as the bank left it: `completed`, created by the full client
 * (`fullB`) in tenant 1, company A, NOK, one instruction, total 0 — each overridable by `batch` (docs/testing.md
 * "Test helpers"; the reconciliation tests build settled instructions on it).
 */
export async function insertCompletedBatch(db: Database["db"], batch: Pick<BatchInsert, "id"> & Partial<BatchInsert>) {
  await db.insert(s.paymentBatches).values({
    tenantId: IDS.tenant,
    companyId: IDS.companyA,
    createdByClientId: CLIENTS.fullB.id,
    initiator: CLIENTS.fullB.clientId,
    currency: "NOK",
    status: "completed",
    totalAmount: "0",
    instructionCount: 1,
    ...batch,
  });
}

/** Creates the harness: database, fixture, app. Call `close()` in afterAll. */
export async function createHarness(config: Partial<AppConfig> = {}): Promise<Harness> {
  await awayFromMidnight();
  const database = await openDatabase({ dataDir: "memory" });
  await insertFixture(database);
  // Tests deliver webhooks to loopback receivers: the development setting that allows private targets is on unless a
  // test turns it off.
  const app = createApp({
    database,
    config: { rateLimit: { limit: 100_000, windowSeconds: 60 }, allowPrivateWebhooks: true, ...config },
  });
  const tokens = new Map<string, string>();

  async function token(client: ClientKey, scope?: string): Promise<string> {
    const key = `${client}|${scope ?? ""}`;
    const cached = tokens.get(key);
    if (cached) return cached;
    const c = CLIENTS[client];
    const issued = c.form === "B" ? await clientToken(app, c.clientId, c.secret, scope) : await tenantToken(c, scope);
    tokens.set(key, issued);
    return issued;
  }

  async function tenantToken(c: (typeof CLIENTS)[ClientKey], scope?: string): Promise<string> {
    const res = await app.request("/public/auth/tenant-token", {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${c.clientId}:${c.secret}`).toString("base64")}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ tenant_id: IDS.tenant, grant_type: "client_credentials", ...(scope ? { scope } : {}) }),
    });
    if (res.status !== 200) throw new Error(`token for ${c.clientId} failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  async function call(method: string, path: string, opts: CallOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...opts.headers };
    const client = opts.client;
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    else if (client) headers.authorization = `Bearer ${await token(client, opts.scope)}`;
    if (client && CLIENTS[client].form === "A" && !("x-tenant-id" in headers)) headers["x-tenant-id"] = IDS.tenant;
    if (opts.company) headers["x-company-id"] = opts.company;
    if (opts.idem) headers["idempotency-key"] = opts.idem === true ? crypto.randomUUID() : opts.idem;
    let body = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers["content-type"] ??= "application/json";
    }
    return app.request(`/public${path}`, { method, headers, body });
  }

  const write = (method: string, path: string, opts: CallOptions = {}) =>
    call(method, path, { client: "fullB", company: IDS.companyA, idem: true, ...opts });

  return { app, database, token, call, write, close: () => database.close() };
}
