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
        amount: (amount + cents / 100).toFixed(digits),
        currency,
        creditor_name: creditor,
        creditor_iban: payeeIban(creditor),
        end_to_end_id: `${key}-${String(i + 1).padStart(4, "0")}`,
      };
    }),
  };
}

/**
 * Seeds the demo payments into an open database that already holds the demo
 * organization and accounts. Not idempotent on its own: the demo seed runs it
 * once, behind its seed marker.
 */
export async function seedPayments(database: Database, opts: PaymentSeedOptions = {}): Promise<PaymentSeedSummary> {
  const db = database.db;
  const seed = opts.seed ?? 1;
  const threshold = opts.fourEyesThreshold ?? "100000.00";
  const now = opts.now ?? new Date();
  const inDays = (d: number) => new Date(now.getTime() + d * 86_400_000).toISOString().slice(0, 10);
  const bank = { bankSpeed: "manual" as const };
  const clock = { now: () => new Date() };

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
  const targets: (Target & { currencies: Set<string> })[] = [];
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
  const chosen = targets.slice(0, opts.maxCompanies ?? 6);
  const ambiguityAt = Math.max(
    0,
    chosen.findIndex((t) => opts.ambiguityCompanyIds?.includes(t.companyId)),
  );

  const summary: PaymentSeedSummary = { batches: 0, byStatus: {}, pendingApprovals: 0 };
  const later: (() => Promise<void>)[] = [];
  const creatorOf = async (tenantId: string) => {
    if (opts.createdByClientId) return opts.createdByClientId;
    const [c] = await db
      .select({ id: oauthClients.id })
      .from(oauthClients)
      .where(eq(oauthClients.tenantId, tenantId))
      .orderBy(asc(oauthClients.clientId))
      .limit(1);
    return c?.id ?? stableUuid(seed, "payments-seed-client");
  };

  for (const [ci, t] of chosen.entries()) {
    const rng = createRng(seed, `payments:${t.companyId}`);
    const scope = { tenantId: t.tenantId, companyIds: [t.companyId] };
    const creator = await creatorOf(t.tenantId);
    const tag = `DEMO${ci + 1}`;
    const make = async (b: PaymentBatchCreate) => {
      summary.batches++;
      // The seed's clock: its execution dates are days after `now`, which may be a fixed instant.
      return createBatch(db, scope, creator, b, now);
    };
    const submit = async (id: string) => {
      await submitBatch(db, scope, id, { byCurrency: {}, fallback: threshold });
      const [req] = await db.select().from(approvalRequests).where(eq(approvalRequests.objectId, id));
      if (!req) throw new Error("submit opened no approval request");
      return req;
    };
    const approveAll = async (id: string) => {
      const req = await submit(id);
      for (let i = 0; i < req.requiredCount; i++) {
        await decide(db, scope, req.id, {
          kind: "approve",
          clientId: creator,
          approver: ["ingrid.approver@demo.example", "lars.approver@demo.example"][i] ?? "approver",
          reason: null,
          bankSpeed: "manual",
        });
      }
    };

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
    await runBankOnce(db, bank, clock);
    if (ambiguous) await applyBankQuirks(db, ambiguous.id);

    // Open approvals: one needing one approver, one needing two.
    await submit((await make(body(rng, t, `${tag}-PA1`, 6))).id);
    summary.pendingApprovals++;
    if (ci > 0) continue;
    await submit((await make(body(rng, t, `${tag}-PA2`, 8, { big: true }))).id);
    const partial = await submit((await make(body(rng, t, `${tag}-PA3`, 5, { big: true }))).id);
    await decide(db, scope, partial.id, {
      kind: "approve",
      clientId: creator,
      approver: "ingrid.approver@demo.example",
      reason: "first approval",
      bankSpeed: "manual",
    });
    summary.pendingApprovals += 2;
    await make(body(rng, t, `${tag}-NEW`, 7, { date: inDays(2) }));
    const rejected = await submit((await make(body(rng, t, `${tag}-REJ`, 5))).id);
    await decide(db, scope, rejected.id, {
      kind: "reject",
      clientId: creator,
      approver: "lars.approver@demo.example",
      reason: "duplicate of an earlier run",
      bankSpeed: "manual",
    });
    // Processing: taken now, settled by the running bank on its execution date.
    const processing = await make(body(rng, t, `${tag}-PRC`, 9, { date: inDays(3) }));
    later.push(async () => {
      await approveAll(processing.id);
      await runBankOnce(db, bank, clock);
    });
    // Approved last: nothing runs the bank after it, so it stays approved until the server's bank worker takes it.
    later.push(async () => approveAll((await make(body(rng, t, `${tag}-APR`, 10))).id));
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
