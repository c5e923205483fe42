/**
 * Demo reconciliation data: proposed and decided matches.
 *
 * The simulated bank proposes a match for every payment it books (see
 * domain/matching.ts), so after the payments seed step there are proposals
 * already. This step:
 * 1. catches up: settled instructions whose booking has no match yet get
 *    proposals (e.g. bookings made before the matcher ran);
 * 2. decides some through the API's own code path (`decideMatch`, which also
 *    writes the `reconciliation.match.updated` events): about half confirmed,
 *    about one in six rejected, the rest left `proposed` for the review queue —
 *    at least one of each when there are three or more.
 * It must run after the payments step; with no settled payment it does nothing.
 */
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "../db/client";
import { proposeMatchesForTransactions } from "../domain/matching";
import { decideMatch } from "../db/repos/reconciliation";
import { registerSeedStep } from "./demo";
import type { Rng } from "./prng";

export interface ReconciliationSeedSummary {
  proposed: number;
  confirmed: number;
  rejected: number;
}

const REVIEWERS = ["kari.nordmann@nordlys.example", "erik.larsson@nordlys.example", "mette.hansen@nordlys.example"];
const REJECT_REASONS = [
  "Booked against another invoice",
  "Duplicate booking, refunded by the bank",
  "Amount differs from the remittance advice",
];

/** Proposes missing matches and decides a deterministic share of them. */
export async function seedReconciliation(database: Database, rng: Rng): Promise<ReconciliationSeedSummary> {
  const db = database.db;
  const unmatched = await queryRows<{ transaction_id: string }>(
    db,
    sql`select i.transaction_id::text as transaction_id from payment_instructions i
        where i.status = 'settled' and i.transaction_id is not null
          and not exists (select 1 from reconciliation_matches m where m.transaction_id = i.transaction_id)
        order by i.transaction_id`,
  );
  if (unmatched.length)
    await db.transaction((tx) =>
      proposeMatchesForTransactions(
        tx,
        unmatched.map((r) => r.transaction_id),
      ),
    );

  const proposals = await queryRows<{ id: string; tenant_id: string; client_id: string | null }>(
    db,
    sql`select m.id::text as id, m.tenant_id::text as tenant_id,
               (select c.id::text from oauth_clients c where c.tenant_id = m.tenant_id order by c.client_id limit
                 1) as client_id
        from reconciliation_matches m where m.state = 'proposed'
        order by m.company_id, m.score desc, m.transaction_id, m.payment_instruction_id`,
  );
  const summary: ReconciliationSeedSummary = { proposed: 0, confirmed: 0, rejected: 0 };
  for (const [n, p] of proposals.entries()) {
    // The first three cover every state; after that the PRNG decides.
    const roll = n < 3 ? ([0.1, 0.9, 0.6][n] ?? 0.9) : rng.next();
    const kind = roll < 0.5 ? "confirm" : roll < 0.67 ? "reject" : null;
    if (!kind || !p.client_id) {
      summary.proposed++;
      continue;
    }
    try {
      await decideMatch(db, { tenantId: p.tenant_id, companyIds: null }, p.id, {
        kind,
        clientId: p.client_id,
        reviewer: rng.pick(REVIEWERS),
        reason: kind === "reject" ? rng.pick(REJECT_REASONS) : undefined,
      });
      summary[kind === "confirm" ? "confirmed" : "rejected"]++;
    } catch {
      // A sibling proposal of a transaction confirmed a moment ago: leave it for the reviewer.
      summary.proposed++;
    }
  }
  return summary;
}

registerSeedStep("reconciliation", async (database, _fixtures, rng) => {
  await seedReconciliation(database, rng);
});
