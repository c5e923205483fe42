/**
 * Demo payments: batches in every state and pending
 * approvals, some needing two approvers, made through the same code paths the
 * API uses (create, submit, approve/reject, the bank simulator), so the demo
 * data obeys every rule of the state machines.
 *
 * For each seeded company (those with an active account; the first one gets
 * the full set) it creates, in its main account currency:
 * - created; pending_approval needing 1 and needing 2 approvals; a
 *   partially_approved request (1 of 2); rejected (instructions cancelled);
 * - completed, partially_completed (creditor names with "REJECT"), failed
 *   (a currency the company holds no account in);
 * - processing (execution date in 3 days: the bank waits for it);
 * - approved (left for the running bank to take).
 * Other companies get one pending approval and one completed batch.
 * Contents (names, amounts, IBANs, end-to-end ids) are deterministic for a
 * seed; row ids are random (they come from the API code paths).
 * Registered as the demo seed step "payments" when this module is imported.
 */
import { and, asc, eq } from "drizzle-orm";
import type { PaymentBatchCreate } from "@treasury/contract/payments";
import { ExactDecimal } from "@treasury/contract/exact-decimal";
import type { Database } from "../db/client";
import { accounts, approvalRequests, companies, oauthClients, paymentBatches } from "../db/schema";
import { bankVerdict, runBankOnce } from "../domain/bank-simulator";
import { decide } from "../db/repos/approvals";
import { createBatch, submitBatch } from "../db/repos/payments";
import { registerSeedStep } from "./demo";
import { NORDLYS_KONCERN_COMPANY_KEYS } from "./demo-clients";
import { ambiguousBatch, applyBankQuirks } from "./ambiguity";
import { generateIban, type NordicCountry } from "./identifiers";
import { createRng, stableUuid, type Rng } from "./prng";

export interface PaymentSeedOptions {
  /** PRNG seed (default 1). */
  seed?: number;
  /** Internal uuid of the OAuth client recorded as the batches' creator (default: the tenant's first client). */
  createdByClientId?: string;
  /** Most companies to seed (default 6). */
  maxCompanies?: number;
  /**
   * Four-eyes threshold for every currency of the seeded batches (default 100000.00 in the batch currency, the
   * API's rule before thresholds were per currency: the seeded approval queue stays as it was).
   */
  fourEyesThreshold?: string;
  /** The clock (default now). */
  now?: Date;
  /**
   * The companies that may carry the ambiguous batch (bank fees, cut references, name variants): the first seeded
   * company among them gets it. Default (or none of them seeded): the first seeded company.
   */
  ambiguityCompanyIds?: readonly string[];
}

export interface PaymentSeedSummary {
  batches: number;
  byStatus: Record<string, number>;
  pendingApprovals: number;
}

const CREDITORS = [
  "Nordic Office Supply AS",
  "Fjordkraft Energi AS",
  "Telenor Bedrift",
  "Bygg & Anlegg Sør AS",
  "Svensk Logistik AB",
  "Dansk Rengøring ApS",
  "Helsinki Consulting Oy",
  "Kontorpartner AS",
  "Oslo Taxi Service AS",
  "Visma Software AS",
];
/**
 * What each demo creditor usually bills (the ambiguity batch's amounts for those it pays: ambiguity.ts), in units of
 * the batch currency.
 */
const USUAL_AMOUNT: Record<string, number> = {
  "Nordic Office Supply AS": 1_450,
  "Fjordkraft Energi AS": 2_480,
  "Telenor Bedrift": 1_150,
  "Bygg & Anlegg Sør AS": 6_200,
  "Svensk Logistik AB": 5_900,
  "Dansk Rengøring ApS": 2_100,
  "Helsinki Consulting Oy": 4_800,
  "Kontorpartner AS": 3_300,
  "Oslo Taxi Service AS": 1_900,
  "Visma Software AS": 2_650,
};
const COUNTRIES: NordicCountry[] = ["NO", "SE", "DK", "FI"];
const BANK_CODES: Record<NordicCountry, string> = { NO: "1503", SE: "500", DK: "3409", FI: "5" };

/**
 * Each demo creditor's one bank account (country and IBAN fixed by its name), as a real payee directory has: paying a
 * known name to a new IBAN is what the dashboard's "bank details changed" signal is for, so the demo must not do it.
 */
function payeeIban(name: string): string {
  const rng = createRng(1, `payee:${name}`);
  const country = COUNTRIES[rng.int(0, COUNTRIES.length - 1)] ?? "NO";
  return generateIban(rng, country, BANK_CODES[country]);
}

interface Target {
  companyId: string;
  tenantId: string;
  currency: string;
}

/**
 * Who the demo batches say created them (`initiator`): the dashboard's demo treasurer, so the dashboard names a
 * person ("Tomas Treasurer") instead of the seeding client. Four-eyes is unaffected: approvers are other people.
 */
export const DEMO_INITIATOR = "treasurer@demo.local";

/** The demo batches' names (batch `reference`, an extension) by the kind in their key, as a treasurer names a run. */
const REFERENCES: Record<string, string> = {
  CMP: "Supplier run",
  PRT: "Contractor invoices",
  FLD: "Foreign supplier run",
  PA1: "Weekly suppliers",
  PA2: "Equipment purchase",
  PA3: "Office lease and services",
  NEW: "Freight invoices",
  REJ: "Supplier run (duplicate)",
  PRC: "Logistics partners",
  APR: "Marketing invoices",
};

function body(
  rng: Rng,
  t: Target,
  key: string,
  n: number,
  opts: { big?: boolean; rejectNames?: boolean; currency?: string; date?: string } = {},
): PaymentBatchCreate {
  const currency = opts.currency ?? t.currency;
  const digits = currency === "JPY" ? 0 : 2;
  const kind = key.split("-").at(-1) ?? "";
  const name = REFERENCES[kind];
  return {
    company_id: t.companyId,
    currency,
    initiator: DEMO_INITIATOR,
    ...(name ? { reference: `${name} ${key.split("-")[0]?.replace("DEMO", "#") ?? ""}`.trim() } : {}),
    ...(opts.date ? { requested_execution_date: opts.date } : {}),
    instructions: Array.from({ length: n }, (_, i) => {
      const country = COUNTRIES[rng.int(0, COUNTRIES.length - 1)] ?? "NO";
      const big = i === 0 && opts.big;
      const drawn = big ? 120_000 + rng.int(0, 50_000) : rng.int(250, 8_000);
      const cents = rng.int(0, 99);
      const creditor =
        opts.rejectNames && i % 4 === 1
          ? `REJECT ${CREDITORS[i % CREDITORS.length] ?? "Creditor"}`
          : (CREDITORS[rng.int(0, CREDITORS.length - 1)] ?? "Creditor");
      // A recurring payee bills about the same each time: its usual amount ±15 % (the draw picks where), so the
      // dashboard's "over 3× the usual" signal is raised by the big payments only, not by chance.
      const usual = USUAL_AMOUNT[creditor.replace(/^REJECT /, "")] ?? 3_000;
      const amount = big ? drawn : Math.round(usual * (0.85 + (0.3 * (drawn - 250)) / 7_750));
      // This draw once gave the instruction a random IBAN; it stays so the seeded amounts and names do not move.
      generateIban(rng, country, BANK_CODES[country]);
      return {
        // Exact: the integer amount plus the drawn cents (the same strings the float sum gave; money is never a float).
        amount: new ExactDecimal(amount).plus(new ExactDecimal(cents).div(100)).toFixed(digits),
        currency,
        creditor_name: creditor,
        creditor_iban: payeeIban(creditor),
        end_to_end_id: `${key}-${String(i + 1).padStart(4, "0")}`,
      };
    }),
  };
}

/** A company that gets demo batches, with every currency it holds an active account in. */
type PaymentTarget = Target & { currencies: Set<string> };

/**
 * The companies with an active account, by name (first account's currency as theirs), at most `maxCompanies`.
 * @throws the database's error
 */
async function paymentTargets(db: Database["db"], maxCompanies: number): Promise<PaymentTarget[]> {
  const rows = await db
    .select({
      companyId: companies.id,
      tenantId: companies.tenantId,
      name: companies.name,
      currency: accounts.currency,
    })
    .from(companies)
    .innerJoin(accounts, and(eq(accounts.companyId, companies.id), eq(accounts.status, "active")))
    .orderBy(asc(companies.name), asc(accounts.name), asc(accounts.id));
  const targets: PaymentTarget[] = [];
  for (const r of rows) {
    const t = targets.find((x) => x.companyId === r.companyId);
    if (t) t.currencies.add(r.currency);
    else
      targets.push({
        companyId: r.companyId,
        tenantId: r.tenantId,
        currency: r.currency,
        currencies: new Set([r.currency]),
      });
  }
  return targets.slice(0, maxCompanies);
}

/** What seeding one company's batches needs: its target, rng stream, tag, and the three API code paths. */
interface CompanyRun {
  t: PaymentTarget;
  rng: Rng;
  /** `DEMO<n>`: the prefix of the company's batch keys. */
  tag: string;
  /** Creates a batch (counted in the summary), execution dates relative to the seed's `now`. */
  make: (b: PaymentBatchCreate) => ReturnType<typeof createBatch>;
  /** Submits a batch; answers the approval request it opened. @throws when none was opened */
  submit: (id: string) => Promise<typeof approvalRequests.$inferSelect>;
  /** Submits a batch and approves it by as many approvers as its request requires. */
  approveAll: (id: string) => Promise<void>;
  /** Records one decision on an approval request by the seed's client. */
  decideAs: (requestId: string, kind: "approve" | "reject", approver: string, reason: string) => Promise<void>;
}

/**
 * The seed's client for `tenantId`: `opts.createdByClientId`, else the tenant's first OAuth client, else a
 * stable id. @throws the database's error
 */
async function creatorOf(db: Database["db"], opts: PaymentSeedOptions, seed: number, tenantId: string) {
  if (opts.createdByClientId) return opts.createdByClientId;
  const [c] = await db
    .select({ id: oauthClients.id })
    .from(oauthClients)
    .where(eq(oauthClients.tenantId, tenantId))
    .orderBy(asc(oauthClients.clientId))
    .limit(1);
  return c?.id ?? stableUuid(seed, "payments-seed-client");
}

/** The {@link CompanyRun} of company number `ci` (0-based), acting as `creator` through the repositories. */
function companyRun(
  db: Database["db"],
  t: PaymentTarget,
  ci: number,
  creator: string,
  seedOpts: { seed: number; threshold: string; now: Date; summary: PaymentSeedSummary },
): CompanyRun {
  const scope = { tenantId: t.tenantId, companyIds: [t.companyId] };
  const decideAs: CompanyRun["decideAs"] = async (requestId, kind, approver, reason) => {
    await decide(db, scope, requestId, { kind, clientId: creator, approver, reason, bankSpeed: "manual" });
  };
  const submit: CompanyRun["submit"] = async (id) => {
    await submitBatch(db, scope, id, { byCurrency: {}, fallback: seedOpts.threshold });
    const [req] = await db.select().from(approvalRequests).where(eq(approvalRequests.objectId, id));
    if (!req) throw new Error("submit opened no approval request");
    return req;
  };
  return {
    t,
    rng: createRng(seedOpts.seed, `payments:${t.companyId}`),
    tag: `DEMO${ci + 1}`,
    make: async (b) => {
      seedOpts.summary.batches++;
      // The seed's clock: its execution dates are days after `now`, which may be a fixed instant.
      return createBatch(db, scope, creator, b, seedOpts.now);
    },
    submit,
    approveAll: async (id) => {
      const req = await submit(id);
      for (let i = 0; i < req.requiredCount; i++) {
        const approver = ["ingrid.approver@demo.example", "lars.approver@demo.example"][i] ?? "approver";
        await decide(db, scope, req.id, {
          kind: "approve",
          clientId: creator,
          approver,
          reason: null,
          bankSpeed: "manual",
        });
      }
    },
    decideAs,
  };
}

/**
 * The first company's batches besides the settled and the one-approver pending one: a pending batch needing two
 * approvals, one approved by one of two, a created one, a rejected one; the processing and approved batches are
 * queued on `later` (they must come after every company's bank run).
 */
async function seedFirstCompanyExtras(
  run: CompanyRun,
  inDays: (d: number) => string,
  runBank: () => Promise<void>,
  later: (() => Promise<void>)[],
): Promise<void> {
  const { rng, t, tag, make, submit, approveAll } = run;
  await submit((await make(body(rng, t, `${tag}-PA2`, 8, { big: true }))).id);
  const partial = await submit((await make(body(rng, t, `${tag}-PA3`, 5, { big: true }))).id);
  await run.decideAs(partial.id, "approve", "ingrid.approver@demo.example", "first approval");
  await make(body(rng, t, `${tag}-NEW`, 7, { date: inDays(2) }));
  const rejected = await submit((await make(body(rng, t, `${tag}-REJ`, 5))).id);
  await run.decideAs(rejected.id, "reject", "lars.approver@demo.example", "duplicate of an earlier run");
  // Processing: taken now, settled by the running bank on its execution date.
  const processing = await make(body(rng, t, `${tag}-PRC`, 9, { date: inDays(3) }));
  later.push(async () => {
    await approveAll(processing.id);
    await runBank();
  });
  // Approved last: nothing runs the bank after it, so it stays approved until the server's bank worker takes it.
  later.push(async () => approveAll((await make(body(rng, t, `${tag}-APR`, 10))).id));
}

/**
 * Seeds the demo payments into an open database that already holds the demo
 * organization and accounts. Not idempotent on its own: the demo seed runs it
 * once, behind its seed marker. Amounts are decimal strings; execution dates
 * YYYY-MM-DD relative to `opts.now`.
 * @throws the first error of the repositories or the bank simulator
 */
export async function seedPayments(database: Database, opts: PaymentSeedOptions = {}): Promise<PaymentSeedSummary> {
  const db = database.db;
  const seed = opts.seed ?? 1;
  const threshold = opts.fourEyesThreshold ?? "100000.00";
  const now = opts.now ?? new Date();
  const inDays = (d: number) => new Date(now.getTime() + d * 86_400_000).toISOString().slice(0, 10);
  const clock = { now: () => new Date() };
  const runBank = async () => {
    await runBankOnce(db, { bankSpeed: "manual" as const }, clock);
  };

  const chosen = await paymentTargets(db, opts.maxCompanies ?? 6);
  const ambiguityAt = Math.max(
    0,
    chosen.findIndex((t) => opts.ambiguityCompanyIds?.includes(t.companyId)),
  );

  const summary: PaymentSeedSummary = { batches: 0, byStatus: {}, pendingApprovals: 0 };
  const later: (() => Promise<void>)[] = [];
  for (const [ci, t] of chosen.entries()) {
    const creator = await creatorOf(db, opts, seed, t.tenantId);
    const run = companyRun(db, t, ci, creator, { seed, threshold, now, summary });
    const { rng, tag, make, submit, approveAll } = run;

    // Settled outcomes first, so the bank run below touches only them.
    const all = body(rng, t, `${tag}-CMP`, 12);
    // Only instructions the simulated bank settles, so this batch ends completed.
    const settling = all.instructions.filter(
      (i) => bankVerdict({ endToEndId: i.end_to_end_id, creditorName: i.creditor_name }, true).status === "settled",
    );
    await approveAll((await make({ ...all, instructions: settling })).id);
    if (ci === 0) {
      await approveAll((await make(body(rng, t, `${tag}-PRT`, 16, { rejectNames: true }))).id);
      const foreign = ["USD", "CHF", "GBP", "EUR"].find((c) => !t.currencies.has(c)) ?? "CHF";
      await approveAll((await make(body(rng, t, `${tag}-FLD`, 4, { currency: foreign }))).id);
    }
    // Bookings as real statements show them (fees, cut references, name variants), so matches score 60–100.
    const ambiguous = ci === ambiguityAt ? await make(ambiguousBatch(t, tag, payeeIban)) : null;
    if (ambiguous) await approveAll(ambiguous.id);
    await runBank();
    if (ambiguous) await applyBankQuirks(db, ambiguous.id);

    // Open approvals: one needing one approver, one needing two.
    await submit((await make(body(rng, t, `${tag}-PA1`, 6))).id);
    summary.pendingApprovals++;
    if (ci > 0) continue;
    await seedFirstCompanyExtras(run, inDays, runBank, later);
    summary.pendingApprovals += 2;
  }
  for (const step of later) await step();

  const statuses = await db.select({ status: paymentBatches.status }).from(paymentBatches);
  for (const s of statuses) summary.byStatus[s.status] = (summary.byStatus[s.status] ?? 0) + 1;
  return summary;
}

// Runs after the ledger (it needs the accounts) and before the reconciliation step (it needs the bookings).
registerSeedStep("payments", async (database, fixtures) => {
  // The ambiguity goes where the demo dashboard looks: a company its OAuth client (the Nordlys koncern) sees.
  const nordlys = new Set<string>(NORDLYS_KONCERN_COMPANY_KEYS);
  await seedPayments(database, {
    seed: fixtures.seed,
    ambiguityCompanyIds: fixtures.companies.filter((c) => nordlys.has(c.key)).map((c) => c.id),
  });
});
