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
 *    at least one of each when there are three or more;
 * 3. ages the batches of the payments left unmatched because their booking
 *    was rejected as their match, by 5, 16 and 42 days in turn, so that the
 *    unmatched view's ages (`GET /reconciliation/unmatched`,
 *    docs/treasury-api.md) are not all "0–2 days". The whole batch moves back
 *    by its age — created, submitted, updated, its execution date, its
 *    approval request and decisions, every instruction and status event — so
 *    its timeline on the batch page still reads created → approved →
 *    accepted → settled. A payment of the batch with a proposed or confirmed
 *    match keeps its settlement on its booking's day (the booking does not
 *    move), so nothing settles days before it was booked; the batch settled
 *    over several days. Amounts, bookings and balances are untouched; only
 *    batches with a payment settled in the last 3 days are aged, and none once
 *    a settlement older than that exists, so a second run moves nothing.
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
  /** Unmatched payments whose settlement was moved back in time (step 3). */
  aged: number;
}

/** The ages in days, in turn, of the payments left unmatched by a rejected match (step 3). */
export const UNMATCHED_AGES_DAYS = [5, 16, 42] as const;

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
  const summary: ReconciliationSeedSummary = { proposed: 0, confirmed: 0, rejected: 0, aged: 0 };
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
  summary.aged = await ageRejectedUnmatched(database);
  return summary;
}

/**
 * Step 3: moves back the whole timeline of each batch holding a recently settled payment whose only matches are
 * rejected; nothing when a settlement older than 3 days exists (aged by an earlier run). Each moves by `UNMATCHED_AGES_DAYS` in turn per batch (batches ordered by the first such payment's end-to-end id:
 * row ids are random, contents are not). Moved, all by the batch's age: the batch's created/updated/submitted
 * timestamps, its bank step and requested execution date when set, its approval request and decisions, its
 * instructions' created/updated timestamps and every status event of the batch except the settlement of a payment
 * with a proposed or confirmed match (it stays on its booking's day). Nothing else (bookings, matches, webhook
 * events) changes.
 * @returns how many unmatched payments were aged (in all the batches moved)
 */
async function ageRejectedUnmatched(database: Database): Promise<number> {
  const db = database.db;
  const rows = await queryRows<{ batch_id: string; payments: number }>(
    db,
    sql`select i.batch_id::text as batch_id, count(*)::int as payments from payment_instructions i
        where i.status = 'settled'
          and exists (select 1 from reconciliation_matches m where m.payment_instruction_id = i.id
            and m.state = 'rejected')
          and not exists (select 1 from reconciliation_matches m where m.payment_instruction_id = i.id
            and m.state in ('proposed', 'confirmed'))
          and exists (select 1 from payment_status_events e where e.instruction_id = i.id and e.status = 'settled'
            and e.occurred_at > now() - interval '3 days')
          -- Once: a run after batches were aged (a settlement older than 3 days exists) moves nothing more, even
          -- when it has since rejected the last match of another batch.
          and not exists (select 1 from payment_status_events e where e.status = 'settled'
            and e.occurred_at <= now() - interval '3 days')
        group by i.batch_id
        order by min(i.end_to_end_id || ' ' || i.creditor_name || ' ' || i.amount::text)`,
  );
  let aged = 0;
  for (const [n, r] of rows.entries()) {
    const days = UNMATCHED_AGES_DAYS[n % UNMATCHED_AGES_DAYS.length] ?? 5;
    const back = sql`make_interval(days => ${days}::int)`;
    await db.transaction(async (tx) => {
      await tx.execute(
        sql`update payment_batches set created_at = created_at - ${back}, updated_at = updated_at - ${back},
              submitted_at = submitted_at - ${back}, bank_next_step_at = bank_next_step_at - ${back},
              requested_execution_date = requested_execution_date - ${days}::int
            where id = ${r.batch_id}::uuid`,
      );
      await tx.execute(
        sql`update payment_instructions set created_at = created_at - ${back}, updated_at = updated_at - ${back}
            where batch_id = ${r.batch_id}::uuid`,
      );
      await tx.execute(
        // A matched payment (proposed or confirmed) keeps its settlement on the day of the booking it is matched
        // with, which stays where it is: the batch then settled over several days, never before a booking.
        sql`update payment_status_events e set occurred_at = e.occurred_at - ${back}
            where e.batch_id = ${r.batch_id}::uuid
              and not (e.status = 'settled' and exists (select 1 from reconciliation_matches m
                where m.payment_instruction_id = e.instruction_id and m.state in ('proposed', 'confirmed')))`,
      );
      await tx.execute(
        sql`update approval_decisions set created_at = created_at - ${back}
            where approval_request_id in (select id from approval_requests where object_id = ${r.batch_id}::uuid)`,
      );
      await tx.execute(
        sql`update approval_requests set created_at = created_at - ${back}, updated_at = updated_at - ${back}
            where object_id = ${r.batch_id}::uuid`,
      );
    });
    aged += r.payments;
  }
  return aged;
}

registerSeedStep("reconciliation", async (database, _fixtures, rng) => {
  await seedReconciliation(database, rng);
});
