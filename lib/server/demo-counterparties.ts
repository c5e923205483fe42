/**
 * Demo mode: the counterparty register of each demo company, filled the way a
 * treasury team fills it. The demo treasurer records every payee the company
 * has paid (a settled instruction in its payment history) and the demo
 * approver verifies them (maker-checker, through the same functions as the
 * counterparties page, so the history and the audit log show both people);
 * one payee that no batch waiting for approval pays stays pending
 * verification, so the register shows both states. Payees the bank refused
 * ("REJECT …" names) are not recorded. A payee already in the register is left
 * as it is: running this again changes nothing.
 */
import "server-only";
import type { DashboardDb } from "../db/client";
import { findUserByEmail } from "../db/users";
import { createCounterparty, verifyCounterparty, type Actor } from "../counterparties/counterparties";
import { ibanKey } from "../counterparties/validation";
import { collectAll } from "../treasury-client";
import { logger } from "./log";
import { treasury } from "./treasury";

/** Who records the demo payees and who verifies them. */
export const DEMO_MAKER = "treasurer@demo.local";
export const DEMO_CHECKER = "approver@demo.local";

/** The payees (name, IBAN) a company has paid: settled instructions, newest name per IBAN; and those pending approval. */
async function payeesOf(companyId: string): Promise<{ paid: Map<string, string>; awaiting: Set<string> }> {
  const call = { requestId: "demo-counterparties", companyId };
  const batches = await collectAll(treasury().listBatches(call, { pageSize: 200 }), { maxPages: 2 });
  const paid = new Map<string, string>();
  const awaiting = new Set<string>();
  for (const b of batches) {
    const pending = b.status === "pending_approval" || b.status === "created";
    if (!pending && b.status !== "completed" && b.status !== "partially_completed") continue;
    const ins = await collectAll(treasury().listBatchInstructions(call, b.id, { pageSize: 1000 }), { maxPages: 5 });
    for (const i of ins) {
      if (pending) awaiting.add(ibanKey(i.creditor_iban));
      else if (i.status === "settled" && !/^REJECT\b/i.test(i.creditor_name))
        paid.set(ibanKey(i.creditor_iban), i.creditor_name);
    }
  }
  return { paid, awaiting };
}

/**
 * Records and verifies the demo companies' payees (see the module comment). Errors of one payee (e.g. already
 * registered) are skipped; a missing demo user skips the step. @returns how many were verified and left pending.
 */
export async function seedDemoCounterparties(
  db: DashboardDb,
  companyIds: readonly string[],
): Promise<{ verified: number; pending: number }> {
  const [maker, checker] = await Promise.all([findUserByEmail(db, DEMO_MAKER), findUserByEmail(db, DEMO_CHECKER)]);
  if (!maker || !checker) return { verified: 0, pending: 0 };
  const asActor = (u: typeof maker): Actor => ({ id: u.id, email: u.email, roles: u.roles, companyIds: u.companyIds });
  let verified = 0;
  let pending = 0;
  for (const companyId of companyIds) {
    const { paid, awaiting } = await payeesOf(companyId).catch(() => ({
      paid: new Map<string, string>(),
      awaiting: new Set<string>(),
    }));
    // The one left for a second person: a payee no waiting batch pays, the last by name.
    const leftPending = [...paid]
      .filter(([iban]) => !awaiting.has(iban))
      .sort((a, b) => a[1].localeCompare(b[1]))
      .at(-1)?.[0];
    for (const [iban, name] of [...paid].sort((a, b) => a[1].localeCompare(b[1]))) {
      try {
        const row = await createCounterparty(db, asActor(maker), companyId, { name, iban });
        if (iban === leftPending) {
          pending++;
          continue;
        }
        await verifyCounterparty(db, asActor(checker), row.id, {
          expectedVersion: row.version,
          reason: "Demo: bank details confirmed with the payee's invoice",
        });
        verified++;
      } catch (err) {
        // Already registered (a restart of the demo), or a company the demo users may not use: leave it.
        logger.debug({ err, companyId, iban }, "demo counterparty skipped");
      }
    }
  }
  return { verified, pending };
}
