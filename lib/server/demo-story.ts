/**
 * Demo mode: the dashboard's own part of the demo data (docs/guides/demo.md), written once into a fresh dashboard
 * database after the demo users exist. The local treasury-api seeds the payments, bookings and matches
 * (treasury-api/seed); what lives in the dashboard database is seeded here:
 *
 * - **counterparties**: each demo company's register holds its suppliers — every creditor its payment batches name
 *   (the simulated bank's "REJECT …" test names left out), recorded by the demo treasurer and verified by the demo
 *   lead (maker-checker, through the same functions as the counterparties page, so history and audit log name both
 *   people). One payee that no waiting batch pays stays pending verification, so the register shows both states. A
 *   batch then carries a medium or high risk signal only for what deserves one (a large outlier, a duplicate, a
 *   changed IBAN, a payee outside the register); a first payment to a verified supplier is a low one;
 * - **cashflow category rules**: salaries, taxes, rent and energy, matched on the demo ledger's own words
 *   (treasury-api/seed/ledger-text.ts), so the cashflow report and the forecast show categories; customer receipts,
 *   supplier invoices, card settlements and intercompany transfers stay `Uncategorised` for the admin to try a rule
 *   on.
 *
 * Once per database: nothing is written when the register or the rules hold anything (a restart of a persistent
 * demo, or a team that has started to use them).
 */
import "server-only";
import { count } from "drizzle-orm";
import { createCategoryRule } from "../categories/store";
import { CategoryRuleInput } from "../categories/rules";
import { createCounterparty, verifyCounterparty, type Actor } from "../counterparties/counterparties";
import { ibanKey } from "../counterparties/validation";
import type { DashboardDb } from "../db/client";
import { cashflowCategoryRules, counterparties } from "../db/schema";
import { findUserByEmail, type DashboardUser } from "../db/users";
import { collectAll, type TreasuryClient } from "../treasury-client";

/** Who records the demo payees (the maker) and who verifies them (the second person). */
export const DEMO_MAKER = "treasurer@demo.local";
export const DEMO_CHECKER = "lead@demo.local";

/** The demo's category rules, in order (the first that matches decides; docs/guides/demo.md). */
export const DEMO_CATEGORY_RULES: readonly Partial<CategoryRuleInput>[] = [
  // Lønn (NO), Løn (DK), Lön (SE), Palkka (FI).
  { category: "Salaries", remittance_contains: "løn", direction: "debit" },
  { category: "Salaries", remittance_contains: "lön", direction: "debit" },
  { category: "Salaries", remittance_contains: "palkka", direction: "debit" },
  // Skatteetaten, Skatteverket, Skattestyrelsen; Verohallinto.
  { category: "Taxes", counterparty_contains: "skatte", direction: "debit" },
  { category: "Taxes", counterparty_contains: "verohallinto", direction: "debit" },
  // Husleie (NO), Husleje (DK), Hyra (SE), Vuokra (FI).
  { category: "Rent", remittance_contains: "husle", direction: "debit" },
  { category: "Rent", remittance_contains: "hyra", direction: "debit" },
  { category: "Rent", remittance_contains: "vuokra", direction: "debit" },
  // The energy suppliers (a customer named "… Energia Oy" pays in: credits are not energy costs).
  { category: "Energy", counterparty_contains: "energi", direction: "debit" },
];

/** What one run wrote. */
export interface DemoStorySummary {
  counterparties: { verified: number; pending: number };
  categoryRules: number;
  /** True when the database already held counterparties or rules: nothing was written. */
  alreadySeeded: boolean;
}

const CALL = "demo-story";

/** The creditors `companyId`'s batches name (IBAN key → name), and the IBANs its waiting batches pay. */
async function payeesOf(
  client: TreasuryClient,
  companyId: string,
): Promise<{ payees: Map<string, string>; awaiting: Set<string> }> {
  const call = { requestId: CALL, companyId };
  const batches = await collectAll(client.listBatches(call, { pageSize: 200 }), { maxPages: 5 });
  const payees = new Map<string, string>();
  const awaiting = new Set<string>();
  for (const b of batches) {
    const waiting = b.status === "created" || b.status === "pending_approval";
    const ins = await collectAll(client.listBatchInstructions(call, b.id, { pageSize: 1000 }), { maxPages: 5 });
    for (const i of ins) {
      if (/^REJECT\b/i.test(i.creditor_name)) continue;
      if (waiting) awaiting.add(ibanKey(i.creditor_iban));
      if (!payees.has(ibanKey(i.creditor_iban))) payees.set(ibanKey(i.creditor_iban), i.creditor_name);
    }
  }
  return { payees, awaiting };
}

function actorOf(u: DashboardUser): Actor {
  return { id: u.id, email: u.email, roles: u.roles, companyIds: u.companyIds };
}

/**
 * Seeds the demo counterparties of `companyIds` (read through `client`, the dashboard's Treasury client) and the
 * demo category rules, once per database (see the module comment).
 * @returns what was written; `alreadySeeded` when nothing was.
 * @throws Error when the demo maker or checker is missing (seed the demo users first); Treasury API and database
 *   errors as they come (the caller logs them: the demo works without this data, only less tellingly)
 */
export async function seedDemoStory(
  db: DashboardDb,
  client: TreasuryClient,
  companyIds: readonly string[],
): Promise<DemoStorySummary> {
  const summary: DemoStorySummary = {
    counterparties: { verified: 0, pending: 0 },
    categoryRules: 0,
    alreadySeeded: false,
  };
  const [[cps], [rules]] = await Promise.all([
    db.select({ n: count() }).from(counterparties),
    db.select({ n: count() }).from(cashflowCategoryRules),
  ]);
  if ((cps?.n ?? 0) > 0 || (rules?.n ?? 0) > 0) return { ...summary, alreadySeeded: true };
  const [maker, checker] = await Promise.all([findUserByEmail(db, DEMO_MAKER), findUserByEmail(db, DEMO_CHECKER)]);
  if (!maker || !checker) throw new Error(`demo story: the demo users ${DEMO_MAKER} and ${DEMO_CHECKER} must exist`);

  for (const input of DEMO_CATEGORY_RULES) {
    await createCategoryRule(db, CategoryRuleInput.parse(input));
    summary.categoryRules++;
  }

  for (const companyId of companyIds) {
    const { payees, awaiting } = await payeesOf(client, companyId);
    const byName = [...payees].sort((a, b) => a[1].localeCompare(b[1]) || a[0].localeCompare(b[0]));
    // The one left for a second person: the last by name of those no waiting batch pays.
    const leftPending = byName.filter(([iban]) => !awaiting.has(iban)).at(-1)?.[0];
    for (const [iban, name] of byName) {
      const row = await createCounterparty(db, actorOf(maker), companyId, { name, iban });
      if (iban === leftPending) {
        summary.counterparties.pending++;
        continue;
      }
      await verifyCounterparty(db, actorOf(checker), row.id, {
        expectedVersion: row.version,
        reason: "Bank details confirmed against the payee's invoice",
      });
      summary.counterparties.verified++;
    }
  }
  return summary;
}
