/**
 * Reconciliation matcher (docs/treasury-api.md#resources and
 * #states-and-transitions; docs/architecture.md#extensions: `score_breakdown`): proposes matches between
 * payment instructions and booked debit transactions with a score 0–100.
 *
 * Score = weighted sum of four parts, each 0–100 (see `scoreMatch`):
 *   amount 35 %, reference 35 %, date 15 %, name 15 %.
 * A pair is proposed when its score is at least {@link PROPOSE_THRESHOLD};
 * at most {@link MAX_PROPOSALS_PER_TRANSACTION} proposals per transaction.
 *
 * Candidates: instructions of the same tenant, company and currency in state
 * `settled` or `accepted`, not confirmed in another match, whose end-to-end id
 * equals the transaction's, appears in its remittance, whose remittance
 * information (free text or creditor reference, 6+ letters / digits) appears
 * in its remittance, whose booking the bank linked to the transaction, or
 * whose amount is equal with a date within 7 days. Transactions must be
 * debits and not confirmed elsewhere.
 */
import { chunk as chunked } from "es-toolkit";
import Decimal from "decimal.js";
import { sql } from "drizzle-orm";
import { distance } from "fastest-levenshtein";
import type { ReconciliationMatch, ScoreBreakdown } from "@treasury/contract/reconciliation";
import { isValidCreditorReference } from "@treasury/contract/creditor-reference";
import { queryRows, type DbOrTx } from "../db/client";
import { reconciliationMatches } from "../db/schema";
import { isoTimestamp } from "../lib/format";
import { newId } from "../lib/secrets";
import { enqueueRowEvents } from "../webhooks/outbox";
import { daysBetween } from "./reporting";

/** Lowest score that is proposed. */
export const PROPOSE_THRESHOLD = 60;
/** Most proposals kept per transaction (best scores first). */
export const MAX_PROPOSALS_PER_TRANSACTION = 3;
/** Weights of the four parts in percent (they add up to 100). */
export const SCORE_WEIGHTS = { amount: 35, reference: 35, date: 15, name: 15 } as const;

export interface ScoreInput {
  instruction: {
    /** Decimal string, positive. */
    amount: string;
    endToEndId: string;
    creditorName: string;
    /** The instruction's remittance information (free text or ISO 11649 creditor reference), if any. */
    remittance?: string | null;
    /**
     * The date the payment was meant to leave: requested execution date, else submission / creation date
     * (`YYYY-MM-DD`).
     */
    date: string;
  };
  transaction: {
    /** Decimal string, absolute amount. */
    amount: string;
    /** `YYYY-MM-DD`. */
    bookedDate: string;
    remittance: string;
    endToEndId: string | null;
    counterpartyName: string;
  };
}

/**
 * Amount part: exact 100; within 1 % from 95 down to 50; within 5 % from 50
 * down to 0; beyond 0. The difference is relative to the instruction amount.
 */
export function amountScore(instructionAmount: string, transactionAmount: string): number {
  const a = new Decimal(instructionAmount);
  const b = new Decimal(transactionAmount);
  if (a.eq(b)) return 100;
  if (a.lte(0)) return 0;
  const rel = a.minus(b).abs().div(a);
  if (rel.lte(0.01)) return Math.round(95 - 45 * rel.div(0.01).toNumber());
  if (rel.lte(0.05)) return Math.round(50 * new Decimal(0.05).minus(rel).div(0.04).toNumber());
  return 0;
}

/** Date part: 100 on the same day, 20 less per day apart, 0 from 5 days. */
export function dateScore(instructionDate: string, bookedDate: string): number {
  return Math.max(0, 100 - 20 * Math.abs(daysBetween(instructionDate, bookedDate)));
}

const compact = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, "");

/**
 * Reference part: 100 when the end-to-end id equals the transaction's
 * end_to_end_id or appears in its remittance; 90 when it appears once
 * spaces and punctuation are ignored; else 0. Ids shorter than 4 characters
 * and the ISO 20022 placeholder NOTPROVIDED never match by text.
 */
export function referenceScore(endToEndId: string, tx: { endToEndId: string | null; remittance: string }): number {
  const id = endToEndId.trim().toUpperCase();
  if (!id || id === "NOTPROVIDED") return 0;
  if (tx.endToEndId && tx.endToEndId.trim().toUpperCase() === id) return 100;
  if (id.length < 4) return 0;
  if (tx.remittance.toUpperCase().includes(id)) return 100;
  const c = compact(id);
  return c.length >= 4 && compact(tx.remittance).includes(c) ? 90 : 0;
}

/** Shortest remittance information (letters and digits) the matcher compares: shorter texts ("Rent") say little. */
export const MIN_REMITTANCE_MATCH = 6;

/**
 * Remittance part of the reference: 100 when the instruction's remittance
 * information (an RF creditor reference or free text) appears in the
 * transaction's remittance as written (case and runs of spaces ignored), 90
 * when it appears once spaces and punctuation are ignored (100 for a valid
 * ISO 11649 creditor reference, which banks print in groups of four and whose
 * check digits make a chance hit unlikely); else 0. Texts with
 * fewer than {@link MIN_REMITTANCE_MATCH} letters and digits never match.
 */
export function remittanceScore(remittance: string | null | undefined, txRemittance: string): number {
  if (!remittance) return 0;
  const c = compact(remittance);
  if (c.length < MIN_REMITTANCE_MATCH) return 0;
  const words = (s: string) => s.toUpperCase().replace(/\s+/g, " ").trim();
  if (words(txRemittance).includes(words(remittance))) return 100;
  if (!compact(txRemittance).includes(c)) return 0;
  return isValidCreditorReference(remittance) ? 100 : 90;
}

/** Legal-form words that say nothing about who the party is. */
const LEGAL_FORMS = new Set([
  "as",
  "asa",
  "ab",
  "publ",
  "aps",
  "a s",
  "oy",
  "oyj",
  "gmbh",
  "ag",
  "kg",
  "ltd",
  "limited",
  "inc",
  "llc",
  "bv",
  "nv",
  "sa",
  "sarl",
  "plc",
  "co",
  "corp",
  "se",
  "hf",
  "ehf",
]);

/** Lower case, no diacritics, `&` as "and", punctuation as spaces, legal forms removed. */
export function normalizeName(name: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/ø/g, "o")
    .replace(/æ/g, "ae")
    .replace(/ß/g, "ss")
    .replace(/&/g, " and ")
    .replace(/\ba\/s\b/g, " ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .split(/\s+/)
    .filter((w) => w && !LEGAL_FORMS.has(w));
  return words.join(" ");
}

function similarity(a: string, b: string): number {
  const max = Math.max(a.length, b.length);
  return max === 0 ? 0 : 1 - distance(a, b) / max;
}

/**
 * Name part: normalized Levenshtein similarity (fastest-levenshtein) of
 * creditor_name and counterparty_name, the better of as-written and
 * word-sorted order; one name containing the other counts at least 90.
 */
export function nameScore(creditorName: string, counterpartyName: string): number {
  const a = normalizeName(creditorName);
  const b = normalizeName(counterpartyName);
  if (!a || !b) return 0;
  const sorted = (s: string) => s.split(" ").sort().join(" ");
  let sim = Math.max(similarity(a, b), similarity(sorted(a), sorted(b)));
  if (Math.min(a.length, b.length) >= 4 && (a.includes(b) || b.includes(a))) sim = Math.max(sim, 0.9);
  return Math.round(sim * 100);
}

/**
 * Scores one instruction–transaction pair. Pure.
 * @returns `score` 0–100 (weighted, rounded) and the four parts 0–100.
 */
export function scoreMatch(input: ScoreInput): { score: number; breakdown: ScoreBreakdown } {
  const { instruction: i, transaction: t } = input;
  const breakdown: ScoreBreakdown = {
    amount: amountScore(i.amount, t.amount),
    date: dateScore(i.date, t.bookedDate),
    // The better of the end-to-end id and the remittance information: a bank may report either.
    reference: Math.max(referenceScore(i.endToEndId, t), remittanceScore(i.remittance, t.remittance)),
    name: nameScore(i.creditorName, t.counterpartyName),
  };
  const weighted =
    breakdown.amount * SCORE_WEIGHTS.amount +
    breakdown.reference * SCORE_WEIGHTS.reference +
    breakdown.date * SCORE_WEIGHTS.date +
    breakdown.name * SCORE_WEIGHTS.name;
  return { score: Math.round(weighted / 100), breakdown };
}

type MatchRow = typeof reconciliationMatches.$inferSelect;

/** A match row as the API returns it (docs/treasury-api.md#resources ReconciliationMatch plus extensions). */
export function toMatch(r: MatchRow): ReconciliationMatch {
  return {
    id: r.id,
    payment_instruction_id: r.paymentInstructionId,
    transaction_id: r.transactionId,
    state: r.state as ReconciliationMatch["state"],
    score: r.score,
    score_breakdown: r.scoreBreakdown as ScoreBreakdown,
    created_at: isoTimestamp(r.createdAt),
    company_id: r.companyId,
    decided_at: r.decidedAt ? isoTimestamp(r.decidedAt) : null,
    reviewer: r.reviewer,
    reason: r.decisionReason,
    origin: r.origin === "manual" ? "manual" : "matcher",
  };
}

interface CandidateRow {
  transaction_id: string;
  tenant_id: string;
  company_id: string;
  t_amount: string;
  booked_date: string;
  remittance: string;
  t_e2e: string | null;
  counterparty_name: string;
  instruction_id: string;
  i_amount: string;
  i_e2e: string;
  creditor_name: string;
  i_remittance: string | null;
  i_date: string;
}

const CHUNK = 1000;

/**
 * Instruction–transaction pairs worth scoring. The pair joins narrow by company for the (company_id, end_to_end_id)
 * index; the final `where` keeps every pair, whatever branch found it, inside one tenant and one company.
 */
async function candidates(tx: DbOrTx, ids: string[]): Promise<CandidateRow[]> {
  const idList = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  return queryRows<CandidateRow>(
    tx,
    sql`
    with t as (
      select id, tenant_id, company_id, currency, amount, booked_date, remittance, end_to_end_id, counterparty_name
      from transactions where id in (${idList}) and direction = 'debit'
    ),
    pairs as (
      select t.id as tid, i.id as iid from t join payment_instructions i on i.company_id = t.company_id and
        i.end_to_end_id = t.end_to_end_id
      union
      select t.id, i.id from t join payment_instructions i on i.transaction_id = t.id
      union
      select t.id, i.id from t
        cross join lateral regexp_split_to_table(t.remittance, '[^A-Za-z0-9_./-]+') w(word)
        join payment_instructions i on i.company_id = t.company_id and i.end_to_end_id = w.word
      where length(w.word) >= 4
      union
      select t.id, i.id from t
        join payment_instructions i on i.company_id = t.company_id and i.currency = t.currency
          and i.remittance_text is not null and i.status in ('settled', 'accepted')
          and length(regexp_replace(upper(i.remittance_text), '[^A-Z0-9]', '', 'g')) >= ${MIN_REMITTANCE_MATCH}
          and position(regexp_replace(upper(i.remittance_text), '[^A-Z0-9]', '', 'g')
            in regexp_replace(upper(t.remittance), '[^A-Z0-9]', '', 'g')) > 0
      union
      select t.id, i.id from t
        join payment_instructions i on i.company_id = t.company_id and i.currency = t.currency and i.amount = t.amount
        join payment_batches b on b.id = i.batch_id
      where coalesce(b.requested_execution_date, b.submitted_at::date, b.created_at::date)
        between t.booked_date - 7 and t.booked_date + 7
    )
    select t.id as transaction_id, t.tenant_id, t.company_id, t.amount::text as t_amount,
           t.booked_date::text as booked_date,
           t.remittance, t.end_to_end_id as t_e2e, t.counterparty_name,
           i.id as instruction_id, i.amount::text as i_amount, i.end_to_end_id as i_e2e, i.creditor_name,
           i.remittance_text as i_remittance,
           coalesce(b.requested_execution_date, b.submitted_at::date, b.created_at::date)::text as i_date
    from pairs p
    join t on t.id = p.tid
    join payment_instructions i on i.id = p.iid
    join payment_batches b on b.id = i.batch_id
    where i.tenant_id = t.tenant_id and i.company_id = t.company_id and i.currency = t.currency
      and i.status in ('settled', 'accepted')
      and not exists (select 1 from reconciliation_matches m where m.payment_instruction_id = i.id
        and m.state = 'confirmed')
      and not exists (select 1 from reconciliation_matches m where m.transaction_id = t.id and m.state = 'confirmed')
      and not exists (select 1 from reconciliation_matches m where m.payment_instruction_id = i.id and
        m.transaction_id = t.id)`,
  );
}

/**
 * Proposes reconciliation matches for newly booked transactions, inside the
 * caller's transaction (the bank simulator calls it in the same transaction
 * that books them, so a crash loses or repeats nothing). Emits
 * `reconciliation.match.created` through the outbox for each new proposal.
 * Credits, unknown ids and pairs already matched are ignored.
 * @param tx the caller's transaction (or the database)
 * @param transactionIds ids of transactions just booked
 */
export async function proposeMatchesForTransactions(tx: DbOrTx, transactionIds: string[]): Promise<void> {
  const unique = [...new Set(transactionIds)];
  for (const part of chunked(unique, CHUNK)) {
    const rows = await candidates(tx, part);
    const byTx = new Map<string, { row: CandidateRow; score: number; breakdown: ScoreBreakdown }[]>();
    for (const row of rows) {
      const scored = scoreMatch({
        instruction: {
          amount: row.i_amount,
          endToEndId: row.i_e2e,
          creditorName: row.creditor_name,
          remittance: row.i_remittance,
          date: row.i_date,
        },
        transaction: {
          amount: row.t_amount,
          bookedDate: row.booked_date,
          remittance: row.remittance,
          endToEndId: row.t_e2e,
          counterpartyName: row.counterparty_name,
        },
      });
      if (scored.score < PROPOSE_THRESHOLD) continue;
      const list = byTx.get(row.transaction_id) ?? [];
      list.push({ row, ...scored });
      byTx.set(row.transaction_id, list);
    }
    const values = [...byTx.values()].flatMap((list) =>
      list
        .sort((a, b) => b.score - a.score || a.row.instruction_id.localeCompare(b.row.instruction_id))
        .slice(0, MAX_PROPOSALS_PER_TRANSACTION)
        .map(({ row, score, breakdown }) => ({
          id: newId(),
          tenantId: row.tenant_id,
          companyId: row.company_id,
          paymentInstructionId: row.instruction_id,
          transactionId: row.transaction_id,
          state: "proposed",
          score,
          scoreBreakdown: breakdown,
        })),
    );
    for (const part of chunked(values, CHUNK)) {
      const inserted = await tx.insert(reconciliationMatches).values(part).onConflictDoNothing().returning();
      await enqueueRowEvents(tx, "reconciliation.match.created", inserted, toMatch);
    }
  }
}
