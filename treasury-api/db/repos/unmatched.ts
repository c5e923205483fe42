/**
 * Unmatched items and manual matches (extensions `GET /reconciliation/unmatched`
 * and `POST /reconciliation/matches`). Functions `(db, scope, params)` with the
 * scope in every `where`.
 *
 * Unmatched: a payment instruction in status `settled`, or a booked debit
 * transaction, that no `confirmed` match names (proposals still awaiting review
 * do not count as matched; their number is returned). Kind `rejected`: a
 * payment instruction the bank rejected, with the reason of its `rejected`
 * status event; no booking will come for it and it is never proposed
 * (docs/guides/reconciliation.md, "Rejected by the bank"). The confirmed-match
 * checks use the partial unique indexes `reconciliation_matches_confirmed_ins`
 * / `_tx`; the transactions side reads `transactions_company_debit_value`.
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { ManualMatchCreate, ReconciliationMatch, UnmatchedItem, UnmatchedKind } from "@treasury/contract";
import { ExactDecimal } from "@treasury/contract/exact-decimal";
import { isUniqueViolation } from "@treasury/contract/sql/errors";
import { scoreMatch, toMatch } from "../../domain/matching";
import { ApiError, fieldError, notFound, stateConflict } from "../../lib/errors";
import { newId } from "../../lib/secrets";
import type { DataScope } from "../../lib/scope";
import { enqueueEvents } from "../../webhooks/outbox";
import { queryRows, type Db, type DbOrTx } from "../client";
import { reconciliationMatches } from "../schema";

/** Instruction statuses listed as unmatched: the money has left (the bank settled the payment). */
export const UNMATCHED_INSTRUCTION_STATUSES = ["settled"] as const;
/** Instruction statuses a manual match accepts: those the matcher proposes for (accepted may be booked already). */
export const MATCHABLE_INSTRUCTION_STATUSES = ["settled", "accepted"] as const;

export interface UnmatchedFilter {
  kind: UnmatchedKind;
  fromDate?: string;
  toDate?: string;
  accountId?: string;
  currency?: string;
  minAmount?: string;
  maxAmount?: string;
  q?: string;
  sort?: "date" | "-date" | "amount" | "-amount";
}

/** `tenant_id = … and company_id in (…)` of the scope, for table alias `alias` (raw SQL). */
function scopeSql(scope: DataScope, alias: string): SQL {
  const t = sql.raw(alias);
  const tenant = sql`${t}.tenant_id = ${scope.tenantId}::uuid`;
  if (scope.companyIds === null) return tenant;
  if (scope.companyIds.length === 0) return sql`false`;
  const ids = sql.join(
    scope.companyIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  return sql`${tenant} and ${t}.company_id in (${ids})`;
}

/** `%text%` for ILIKE with the pattern characters of `text` escaped. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** The rows (before the filters on the computed date) of one kind, as a SQL sub-select. */
function baseRows(scope: DataScope, kind: UnmatchedKind): SQL {
  if (kind === "rejected")
    return sql`
      select i.id, i.company_id, a.id as account_id, a.name as account_name, i.amount as amount_n,
        i.currency, coalesce((e.occurred_at at time zone 'UTC')::date, (i.updated_at at time zone 'UTC')::date)
          as item_date,
        i.creditor_name as counterparty_name, i.end_to_end_id, i.remittance_text as remittance, i.batch_id, i.status,
        e.reason, e.reason_text
      from payment_instructions i
      join payment_batches b on b.id = i.batch_id
      left join lateral (select x.id, x.name from accounts x
        where x.tenant_id = i.tenant_id and x.company_id = i.company_id and x.currency = b.currency
          and x.status = 'active'
        order by (x.id = b.debtor_account_id) desc, x.name, x.id limit 1) a on true
      left join payment_status_events e on e.instruction_id = i.id and e.status = 'rejected'
      where ${scopeSql(scope, "i")} and i.status = 'rejected'`;
  if (kind === "instruction")
    return sql`
      select i.id, i.company_id, a.id as account_id, a.name as account_name, i.amount as amount_n,
        i.currency, coalesce((e.occurred_at at time zone 'UTC')::date, b.requested_execution_date,
          (i.updated_at at time zone 'UTC')::date) as item_date,
        i.creditor_name as counterparty_name, i.end_to_end_id, i.remittance_text as remittance, i.batch_id, i.status,
        null::text as reason, null::text as reason_text
      from payment_instructions i
      join payment_batches b on b.id = i.batch_id
      left join transactions bt on bt.id = i.transaction_id
      left join accounts a on a.id = coalesce(b.debtor_account_id, bt.account_id)
      left join payment_status_events e on e.instruction_id = i.id and e.status = 'settled'
      where ${scopeSql(scope, "i")} and i.status in ('settled')
        and not exists (select 1 from reconciliation_matches m
          where m.payment_instruction_id = i.id and m.state = 'confirmed')`;
  return sql`
    select t.id, t.company_id, t.account_id, a.name as account_name, t.amount as amount_n, t.currency,
      t.value_date as item_date, t.counterparty_name, t.end_to_end_id, t.remittance, null::uuid as batch_id,
      'booked' as status, null::text as reason, null::text as reason_text
    from transactions t
    join accounts a on a.id = t.account_id
    where ${scopeSql(scope, "t")} and t.direction = 'debit'
      and not exists (select 1 from reconciliation_matches m where m.transaction_id = t.id and m.state = 'confirmed')`;
}

/** The `where` of the filters on the base rows (alias `u`). */
function filterSql(f: UnmatchedFilter): SQL {
  const conds: SQL[] = [sql`true`];
  if (f.fromDate) conds.push(sql`u.item_date >= ${f.fromDate}::date`);
  if (f.toDate) conds.push(sql`u.item_date <= ${f.toDate}::date`);
  if (f.accountId) conds.push(sql`u.account_id = ${f.accountId}::uuid`);
  if (f.currency) conds.push(sql`u.currency = ${f.currency}`);
  if (f.minAmount) conds.push(sql`u.amount_n >= ${f.minAmount}::numeric`);
  if (f.maxAmount) conds.push(sql`u.amount_n <= ${f.maxAmount}::numeric`);
  if (f.q) {
    const p = containsPattern(f.q);
    conds.push(
      sql`(u.counterparty_name ilike ${p} or coalesce(u.end_to_end_id, '') ilike ${p}
        or coalesce(u.remittance, '') ilike ${p})`,
    );
  }
  return sql.join(conds, sql` and `);
}

const ORDER: Record<NonNullable<UnmatchedFilter["sort"]>, SQL> = {
  date: sql`u.item_date asc, u.id asc`,
  "-date": sql`u.item_date desc, u.id desc`,
  amount: sql`u.amount_n asc, u.item_date asc, u.id asc`,
  "-amount": sql`u.amount_n desc, u.item_date asc, u.id asc`,
};

interface UnmatchedRow {
  id: string;
  company_id: string;
  account_id: string | null;
  account_name: string | null;
  amount: string;
  currency: string;
  item_date: string;
  counterparty_name: string;
  end_to_end_id: string | null;
  remittance: string | null;
  batch_id: string | null;
  status: string;
  proposed_matches: number;
  reason: string | null;
  reason_text: string | null;
}

/**
 * One page of unmatched items of `f.kind`, sorted by `f.sort` (default oldest first), and their total when
 * `withCount`.
 */
export async function listUnmatched(
  db: Db,
  scope: DataScope,
  f: UnmatchedFilter,
  page: { limit: number; offset: number },
  withCount: boolean,
): Promise<{ rows: UnmatchedItem[]; count: number }> {
  if (f.minAmount && f.maxAmount && new ExactDecimal(f.minAmount).gt(f.maxAmount))
    throw fieldError("min_amount", "must not be greater than max_amount");
  const base = baseRows(scope, f.kind);
  const where = filterSql(f);
  const side = f.kind === "transaction" ? sql.raw("transaction_id") : sql.raw("payment_instruction_id");
  const [rows, total] = await Promise.all([
    queryRows<UnmatchedRow>(
      db,
      sql`select u.id, u.company_id, u.account_id, u.account_name, u.amount_n::text as amount, u.currency,
            u.item_date::text as item_date, u.counterparty_name, u.end_to_end_id, u.remittance, u.batch_id, u.status,
            u.reason, u.reason_text,
            (select count(*)::int from reconciliation_matches m where m.${side} = u.id and m.state = 'proposed')
              as proposed_matches
          from (${base}) u where ${where}
          order by ${ORDER[f.sort ?? "date"]}
          limit ${page.limit} offset ${page.offset}`,
    ),
    withCount
      ? queryRows<{ n: number }>(db, sql`select count(*)::int as n from (${base}) u where ${where}`)
      : Promise.resolve([{ n: 0 }]),
  ]);
  return {
    rows: rows.map((r) => ({
      kind: f.kind,
      id: r.id,
      company_id: r.company_id,
      account_id: r.account_id,
      account_name: r.account_name,
      amount: r.amount,
      currency: r.currency,
      date: r.item_date,
      counterparty_name: r.counterparty_name,
      end_to_end_id: r.end_to_end_id,
      remittance: r.remittance || null,
      batch_id: r.batch_id,
      status: r.status,
      proposed_matches: Number(r.proposed_matches),
      ...(f.kind === "rejected" ? { reason: r.reason, reason_text: r.reason_text } : {}),
    })),
    count: Number(total[0]?.n ?? 0),
  };
}

interface InstructionSide {
  id: string;
  tenant_id: string;
  company_id: string;
  status: string;
  amount: string;
  currency: string;
  end_to_end_id: string;
  creditor_name: string;
  remittance_text: string | null;
  i_date: string;
}

interface TransactionSide {
  id: string;
  company_id: string;
  direction: string;
  amount: string;
  currency: string;
  booked_date: string;
  remittance: string;
  end_to_end_id: string | null;
  counterparty_name: string;
}

/** The confirmed match naming the instruction or the transaction, if any. */
async function confirmedElsewhere(
  tx: DbOrTx,
  instructionId: string,
  transactionId: string,
): Promise<{ id: string; what: "instruction" | "transaction" } | null> {
  const [row] = await queryRows<{ id: string; payment_instruction_id: string }>(
    tx,
    sql`select id, payment_instruction_id from reconciliation_matches where state = 'confirmed'
        and (payment_instruction_id = ${instructionId}::uuid or transaction_id = ${transactionId}::uuid) limit 1`,
  );
  if (!row) return null;
  return { id: row.id, what: row.payment_instruction_id === instructionId ? "instruction" : "transaction" };
}

/** What the caller records with a manual match. */
export interface ManualMatchInput extends ManualMatchCreate {
  /** Internal id of the OAuth client making the call. */
  clientId: string;
}

/**
 * Locks both sides of a manual match (`for update`, instruction first, then transaction) and checks they may be
 * matched. Runs inside the caller's transaction.
 * @throws 404 when either id is not visible in the scope; 400 naming transaction_id when the transaction is not a
 *   debit of the instruction's company and currency; 409 when the instruction is not settled or accepted, or when
 *   either side is already confirmed in another match
 */
async function lockManualPair(
  tx: DbOrTx,
  scope: DataScope,
  input: ManualMatchInput,
): Promise<{ ins: InstructionSide; t: TransactionSide }> {
  const [ins] = await queryRows<InstructionSide>(
    tx,
    sql`select i.id, i.tenant_id, i.company_id, i.status, i.amount::text as amount, i.currency, i.end_to_end_id,
          i.creditor_name, i.remittance_text,
          coalesce(b.requested_execution_date, (b.submitted_at at time zone 'UTC')::date,
            (b.created_at at time zone 'UTC')::date)::text as i_date
        from payment_instructions i join payment_batches b on b.id = i.batch_id
        where i.id = ${input.instruction_id}::uuid and ${scopeSql(scope, "i")}
        for update of i`,
  );
  if (!ins) throw notFound("Payment instruction");
  const [t] = await queryRows<TransactionSide>(
    tx,
    sql`select t.id, t.company_id, t.direction, t.amount::text as amount, t.currency,
          t.booked_date::text as booked_date, t.remittance, t.end_to_end_id, t.counterparty_name
        from transactions t where t.id = ${input.transaction_id}::uuid and ${scopeSql(scope, "t")}
        for update of t`,
  );
  if (!t) throw notFound("Transaction");
  if (t.company_id !== ins.company_id)
    throw fieldError("transaction_id", "must name a transaction of the instruction's company");
  if (t.direction !== "debit") throw fieldError("transaction_id", "must name a debit transaction");
  if (t.currency !== ins.currency)
    throw fieldError("transaction_id", `must name a transaction in the instruction's currency (${ins.currency})`);
  if (!(MATCHABLE_INSTRUCTION_STATUSES as readonly string[]).includes(ins.status))
    throw stateConflict("payment instruction", ins.status, MATCHABLE_INSTRUCTION_STATUSES, "match");
  const other = await confirmedElsewhere(tx, ins.id, t.id);
  if (other)
    throw new ApiError("conflict", `The ${other.what} is already confirmed in another match`, {
      reason: `${other.what}_already_matched`,
      match_id: other.id,
    });
  return { ins, t };
}

/** The matcher's score (0–100) and breakdown of an instruction and a transaction, for information. */
function scorePair(ins: InstructionSide, t: TransactionSide): ReturnType<typeof scoreMatch> {
  return scoreMatch({
    instruction: {
      amount: ins.amount,
      endToEndId: ins.end_to_end_id,
      creditorName: ins.creditor_name,
      remittance: ins.remittance_text,
      date: ins.i_date,
    },
    transaction: {
      amount: t.amount,
      bookedDate: t.booked_date,
      remittance: t.remittance,
      endToEndId: t.end_to_end_id,
      counterpartyName: t.counterparty_name,
    },
  });
}

/**
 * Matches an instruction and a transaction by hand: the match is created `confirmed` (origin `manual`), attributed
 * to the calling client and the reviewer, with the note as its reason; its score is the matcher's score of the pair
 * (for information). A proposal (or a rejected one) of the same pair is confirmed instead of a second row being
 * made. Emits `reconciliation.match.created` (new row) or `.updated` (an existing row) in the same transaction.
 * @returns the match and whether a new row was created
 * @throws 404 when either id is not visible in the scope; 400 naming transaction_id when the transaction is not a
 *   debit of the instruction's company and currency; 409 when the instruction is not settled or accepted, or when
 *   either side is already confirmed in a match (details.reason instruction_already_matched /
 *   transaction_already_matched, details.match_id).
 */
export async function createManualMatch(
  db: Db,
  scope: DataScope,
  input: ManualMatchInput,
): Promise<{ match: ReconciliationMatch; created: boolean }> {
  try {
    return await db.transaction(async (tx) => {
      const { ins, t } = await lockManualPair(tx, scope, input);
      const { score, breakdown } = scorePair(ins, t);
      const decided = {
        state: "confirmed",
        origin: "manual",
        decidedAt: new Date().toISOString(),
        decidedByClientId: input.clientId,
        reviewer: input.reviewer ?? null,
        decisionReason: input.note ?? null,
      };
      const [existing] = await tx
        .select({ id: reconciliationMatches.id })
        .from(reconciliationMatches)
        .where(
          and(eq(reconciliationMatches.paymentInstructionId, ins.id), eq(reconciliationMatches.transactionId, t.id)),
        )
        .for("update");
      const [row] = existing
        ? await tx
            .update(reconciliationMatches)
            .set(decided)
            .where(eq(reconciliationMatches.id, existing.id))
            .returning()
        : await tx
            .insert(reconciliationMatches)
            .values({
              id: newId(),
              tenantId: ins.tenant_id,
              companyId: ins.company_id,
              paymentInstructionId: ins.id,
              transactionId: t.id,
              score,
              scoreBreakdown: breakdown,
              ...decided,
            })
            .returning();
      if (!row) throw notFound("Reconciliation match");
      const match = toMatch(row);
      await enqueueEvents(tx, [
        {
          tenantId: row.tenantId,
          companyId: row.companyId,
          type: existing ? "reconciliation.match.updated" : "reconciliation.match.created",
          data: match,
        },
      ]);
      return { match, created: !existing };
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ApiError("conflict", "The instruction or transaction was confirmed in another match meanwhile", {
        reason: "already_matched",
      });
    throw err;
  }
}
