/**
 * The simulated bank (docs/architecture.md#states-and-transitions).
 *
 * A clock-driven worker moves approved batches forward in two steps:
 *
 * 1. take: batch approved → processing; every instruction pending → accepted.
 * 2. settle (when due, and not before the requested execution date): each
 *    accepted instruction → settled (a debit transaction booked on the batch's
 *    debtor account — the chosen one, else the company's first active account
 *    in the currency — with the instruction's remittance information, else its
 *    end-to-end id, in `remittance`) or
 *    rejected (deterministic rule below); the account's interim_booked balance
 *    of the day and an interim_booked intraday point are updated; the batch →
 *    completed / partially_completed / failed; the reconciliation matcher
 *    proposes matches for the booked transactions.
 * 3. day end (at the first run of each new date): the interim balances of days that
 *    have ended become those days' closing balances (`closeEndedDays`); no
 *    closing balance is ever written for the day in progress.
 *
 * Each step is one database transaction that claims one due batch with
 * `SELECT … FOR UPDATE SKIP LOCKED` and commits its state change, its status
 * events, its transactions, its balances and its outbox events
 * (`payment.status.updated`, `transaction.created`) together. A crash between
 * or inside steps therefore loses nothing and repeats nothing: an
 * uncommitted step is redone from scratch, a committed one is never due
 * again. Unique indexes (one status event per instruction and status, one
 * booking per instruction via `transactions.dedupe_key`) guard it as well.
 * Several instances may run the worker against one PostgreSQL database.
 *
 * Rejection rule (deterministic): an instruction is rejected with reason
 * AC02 when the company has no active account in the batch currency (the
 * whole batch fails); AC04 (closed account) when `creditor_name` contains
 * "REJECT" (any case); otherwise by the first byte b of SHA-256(end_to_end_id):
 * b < 5 → AC04, 5 ≤ b < 8 → AM04 (insufficient funds), about 3 % in all.
 */
import { chunk as chunked } from "es-toolkit";
import { createHash } from "node:crypto";
import { ExactDecimal as Decimal } from "@treasury/contract/exact-decimal";
import { and, asc, desc, eq, inArray, lt, lte, or, isNull, sql } from "drizzle-orm";
import type { AppConfig, BankSpeed } from "../config";
import { queryRows, type Db, type DbOrTx } from "../db/client";
import { startOfBusinessDate } from "@treasury/contract/business-date";
import {
  accounts,
  balanceSnapshots,
  companies,
  intradayPoints,
  paymentBatches,
  paymentInstructions,
  transactions,
} from "../db/schema";
import { failpoint } from "../lib/failpoints";
import { newId } from "../lib/secrets";
import { toTransaction } from "../db/repos/ledger";
import type { InstructionStatus } from "@treasury/contract/payments";
import { applyStatusChanges, debtorAccountRow, type BatchRow, type StatusChange } from "../db/repos/payments";
import { enqueueRowEvents } from "../webhooks/outbox";
import { proposeMatchesForTransactions } from "./matching";
import { BATCH_MACHINE, INSTRUCTION_MACHINE, settledBatchStatus, transition } from "./payment-states";

/** The two bank steps of a batch: take it (approved → processing) and settle it (processing → outcome). */
export type BankStep = "take" | "settle";

/**
 * Delay before a bank step is due, in milliseconds, and the worker's tick
 * interval per speed: instant 0 (each tick does every due step), fast
 * seconds, realistic minutes; manual has no worker (tests call `runBankOnce`)
 * and no delays.
 */
export const BANK_PACE: Record<BankSpeed, { take: number; settle: number; tickMs: number | null }> = {
  instant: { take: 0, settle: 0, tickMs: 250 },
  fast: { take: 2_000, settle: 5_000, tickMs: 1_000 },
  realistic: { take: 60_000, settle: 5 * 60_000, tickMs: 15_000 },
  manual: { take: 0, settle: 0, tickMs: null },
};

/** When `step` becomes due if the previous one happened at `from`. */
export function bankDueAt(speed: BankSpeed, step: BankStep, from: Date): Date {
  return new Date(from.getTime() + BANK_PACE[speed][step]);
}

/** ISO 20022 reason codes the simulated bank uses. */
export const REJECTION_REASONS = {
  AC02: "invalid debtor account (no account of the batch currency)",
  AC04: "closed account",
  AM04: "insufficient funds",
} as const;
export type RejectionReason = keyof typeof REJECTION_REASONS;

/**
 * The bank's verdict on one instruction (the deterministic rule in the module doc).
 * @param hasAccount whether the company has an active account in the batch currency
 */
export function bankVerdict(
  ins: { endToEndId: string; creditorName: string },
  hasAccount: boolean,
): { status: "settled" } | { status: "rejected"; reason: RejectionReason } {
  if (!hasAccount) return { status: "rejected", reason: "AC02" };
  if (/reject/i.test(ins.creditorName)) return { status: "rejected", reason: "AC04" };
  const b = createHash("sha256").update(ins.endToEndId, "utf8").digest()[0] ?? 255;
  if (b < 5) return { status: "rejected", reason: "AC04" };
  if (b < 8) return { status: "rejected", reason: "AM04" };
  return { status: "settled" };
}

export interface BankRunOptions {
  /** The clock (default: the real time at each step). */
  now?: () => Date;
  /** Most steps in this run (default 100). */
  maxSteps?: number;
  /** Checked between steps: stop at a safe point when true. */
  shouldStop?: () => boolean;
  /** Test hook: runs inside a step's transaction just before it commits; throwing rolls the step back. */
  beforeCommit?: (step: { batchId: string; step: BankStep }) => Promise<void> | void;
}

export interface BankRunResult {
  steps: { batchId: string; step: BankStep; status: string }[];
}

const INSERT_CHUNK = 1000;

/** The country of a company (ISO 3166 alpha-2), or null when it is not found. */
async function companyCountry(tx: DbOrTx, companyId: string): Promise<string | null> {
  const rows = await tx.select({ country: companies.country }).from(companies).where(eq(companies.id, companyId));
  return rows[0]?.country ?? null;
}

/** Step 1: approved → processing, pending instructions → accepted. */
async function takeBatch(tx: DbOrTx, batch: BatchRow, now: Date, speed: BankSpeed): Promise<string> {
  const status = transition(BATCH_MACHINE, batch.status, "take");
  const at = now.toISOString();
  const rows = await tx
    .select()
    .from(paymentInstructions)
    .where(
      and(
        eq(paymentInstructions.batchId, batch.id),
        inArray(paymentInstructions.status, [...INSTRUCTION_MACHINE.operations.accept.from]),
      ),
    )
    .orderBy(asc(paymentInstructions.position));
  await applyStatusChanges(
    tx,
    rows.map((instruction) => ({ instruction, status: transition(INSTRUCTION_MACHINE, instruction.status, "accept") })),
    at,
  );
  const due = bankDueAt(speed, "settle", now);
  // The requested execution date is the company's business date: it begins at midnight where the company is.
  const execution = batch.requestedExecutionDate
    ? startOfBusinessDate(await companyCountry(tx, batch.companyId), batch.requestedExecutionDate)
    : due;
  const next = execution > due ? execution : due;
  await tx
    .update(paymentBatches)
    .set({ status, updatedAt: at, bankNextStepAt: next.toISOString() })
    .where(eq(paymentBatches.id, batch.id));
  return status;
}

/** The day's interim balance of this type so far, else the latest closing before the day, else null. */
async function dayBase(
  tx: DbOrTx,
  accountId: string,
  interim: "interim_booked" | "interim_available",
  closing: "closing_booked" | "closing_available",
  date: string,
): Promise<string | null> {
  const [row] = await tx
    .select({ balance: balanceSnapshots.balance })
    .from(balanceSnapshots)
    .where(
      and(
        eq(balanceSnapshots.accountId, accountId),
        or(
          and(eq(balanceSnapshots.balanceType, interim), eq(balanceSnapshots.asOfDate, date)),
          and(eq(balanceSnapshots.balanceType, closing), lt(balanceSnapshots.asOfDate, date)),
        ),
      ),
    )
    // The day's interim first (its date is the latest), then the newest closing.
    .orderBy(desc(balanceSnapshots.asOfDate))
    .limit(1);
  return row?.balance ?? null;
}

async function upsertInterim(
  tx: DbOrTx,
  account: typeof accounts.$inferSelect,
  balanceType: "interim_booked" | "interim_available",
  date: string,
  balance: string,
): Promise<void> {
  await tx
    .insert(balanceSnapshots)
    .values({
      id: newId(),
      tenantId: account.tenantId,
      companyId: account.companyId,
      accountId: account.id,
      balanceType,
      asOfDate: date,
      balance,
      currency: account.currency,
      source: "api",
    })
    .onConflictDoUpdate({
      target: [balanceSnapshots.accountId, balanceSnapshots.balanceType, balanceSnapshots.asOfDate],
      set: { balance },
    });
}

/** The date `runBankOnce` last ran the day end for, per database. */
const closedThrough = new WeakMap<Db, string>();

/**
 * Day end: every interim balance of a day before `today` that has no closing balance of its kind becomes that
 * day's closing (interim_booked → closing_booked, interim_available → closing_available), as a bank's end-of-day
 * statement would report it. A closing already there (a bank statement's, or an earlier run's) is kept; a statement
 * imported later overwrites these. Idempotent, one statement.
 * @returns the number of closing balances written
 */
export async function closeEndedDays(db: DbOrTx, today: string): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`with ins as (
      insert into balance_snapshots (id, tenant_id, company_id, account_id, balance_type, as_of_date, balance,
        currency, source)
      select gen_random_uuid(), i.tenant_id, i.company_id, i.account_id,
             case i.balance_type when 'interim_booked' then 'closing_booked' else 'closing_available' end,
             i.as_of_date, i.balance, i.currency, i.source
      from balance_snapshots i
      where i.balance_type in ('interim_booked', 'interim_available') and i.as_of_date < ${today}::date
      on conflict (account_id, balance_type, as_of_date) do nothing
      returning 1)
    select count(*)::int as n from ins`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Books `amount` out of the account on `date` (the bank's current day, which has not ended): the day's
 * interim_booked balance (and interim_available, where the account has available balances) becomes the day's
 * interim figure so far — else the latest closing before that day — minus the amount, and an interim_booked
 * intraday point at `at` shows the same balance. Closing balances are written only for ended days
 * (`closeEndedDays`), never for the day in progress.
 */
async function updateBalances(
  tx: DbOrTx,
  account: typeof accounts.$inferSelect,
  amount: Decimal,
  date: string,
  at: string,
): Promise<void> {
  const bookedBase = await dayBase(tx, account.id, "interim_booked", "closing_booked", date);
  const balance = new Decimal(bookedBase ?? 0).minus(amount).toFixed();
  await upsertInterim(tx, account, "interim_booked", date, balance);
  const availableBase = await dayBase(tx, account.id, "interim_available", "closing_available", date);
  if (availableBase !== null) {
    await upsertInterim(tx, account, "interim_available", date, new Decimal(availableBase).minus(amount).toFixed());
  }
  await tx.insert(intradayPoints).values({
    id: newId(),
    tenantId: account.tenantId,
    companyId: account.companyId,
    accountId: account.id,
    timestamp: at,
    balance,
    currency: account.currency,
    balanceType: "interim_booked",
  });
}

/**
 * Books the settled instructions on the debtor account, inside the settle step's transaction: one debit
 * transaction each at `at` (once per instruction: its dedupe key), `transaction.created` events, and the interim
 * balances and intraday point lowered by their total (exact decimals).
 * @returns the booked transaction id per dedupe key (`payment-instruction:<id>`)
 */
async function bookSettled(
  tx: DbOrTx,
  batch: BatchRow,
  account: typeof accounts.$inferSelect,
  toBook: (typeof paymentInstructions.$inferSelect)[],
  date: string,
  at: string,
): Promise<Map<string, string>> {
  const bookedBy = new Map<string, string>();
  for (const chunk of chunked(toBook, INSERT_CHUNK)) {
    const inserted = await tx
      .insert(transactions)
      .values(
        chunk.map((ins) => ({
          id: newId(),
          tenantId: batch.tenantId,
          companyId: batch.companyId,
          accountId: account.id,
          amount: ins.amount,
          currency: batch.currency,
          direction: "debit" as const,
          bookedDate: date,
          bookedAt: at,
          valueDate: date,
          valueAt: at,
          counterpartyName: ins.creditorName,
          // The bank reports the payment's remittance information (free text or RF reference) when it has one.
          remittance: ins.remittanceText ?? ins.endToEndId,
          endToEndId: ins.endToEndId,
          source: "bank-simulator",
          dedupeKey: `payment-instruction:${ins.id}`,
        })),
      )
      .onConflictDoNothing()
      .returning();
    for (const t of inserted) bookedBy.set(t.dedupeKey ?? "", t.id);
    await enqueueRowEvents(tx, "transaction.created", inserted, toTransaction);
  }
  const total = toBook.reduce((sum, ins) => sum.plus(ins.amount), new Decimal(0));
  await updateBalances(tx, account, total, date, at);
  return bookedBy;
}

/** Step 2: every accepted instruction settles or is rejected; bookings, balances, batch outcome, matches. */
async function settleBatch(tx: DbOrTx, batch: BatchRow, now: Date): Promise<string> {
  transition(BATCH_MACHINE, batch.status, "settle", "completed"); // state check only; the outcome follows below
  // Events of this step come strictly after the take step's, even within one millisecond.
  const takenAt = new Date(batch.updatedAt).getTime();
  const when = new Date(Math.max(now.getTime(), takenAt + 1));
  const at = when.toISOString();
  const date = at.slice(0, 10);
  const account = await debtorAccountRow(tx, batch);
  const rows = await tx
    .select()
    .from(paymentInstructions)
    .where(and(eq(paymentInstructions.batchId, batch.id), eq(paymentInstructions.status, "accepted")))
    .orderBy(asc(paymentInstructions.position));

  const verdicts = rows.map((instruction) => ({
    instruction,
    verdict: bankVerdict(instruction, account !== undefined),
  }));
  const toBook = verdicts.filter((v) => v.verdict.status === "settled").map((v) => v.instruction);
  const bookedBy =
    account && toBook.length > 0 ? await bookSettled(tx, batch, account, toBook, date, at) : new Map<string, string>();

  const changes: StatusChange[] = verdicts.map(({ instruction, verdict }) =>
    verdict.status === "settled"
      ? {
          instruction,
          status: transition(INSTRUCTION_MACHINE, instruction.status, "settle"),
          transactionId: bookedBy.get(`payment-instruction:${instruction.id}`) ?? null,
        }
      : { instruction, status: transition(INSTRUCTION_MACHINE, instruction.status, "reject"), reason: verdict.reason },
  );
  await applyStatusChanges(tx, changes, at);

  // The outcome counts every instruction of the batch, not only this step's (rows cancelled or settled earlier stay
  // counted).
  const outcomes = await tx
    .select({ status: paymentInstructions.status })
    .from(paymentInstructions)
    .where(eq(paymentInstructions.batchId, batch.id));
  const status = transition(
    BATCH_MACHINE,
    batch.status,
    "settle",
    settledBatchStatus(outcomes.map((o) => o.status as InstructionStatus)),
  );
  await tx
    .update(paymentBatches)
    .set({ status, updatedAt: at, bankNextStepAt: null })
    .where(eq(paymentBatches.id, batch.id));
  if (bookedBy.size > 0) await proposeMatchesForTransactions(tx, [...bookedBy.values()]);
  return status;
}

/**
 * Runs due bank steps, one batch step per transaction, until none is due,
 * `maxSteps` is reached or `shouldStop()` says so. Safe to run from several
 * processes at once (claims use SKIP LOCKED) and to repeat after a crash.
 * @param config only `bankSpeed` is used (delays between steps)
 * @returns the steps done, in order
 */
export async function runBankOnce(
  db: Db,
  config: Pick<AppConfig, "bankSpeed">,
  opts: BankRunOptions = {},
): Promise<BankRunResult> {
  const maxSteps = opts.maxSteps ?? 100;
  const clock = opts.now ?? (() => new Date());
  const steps: BankRunResult["steps"] = [];
  const today = clock().toISOString().slice(0, 10);
  // Day end runs once per date per database, not on every tick of the worker.
  if (closedThrough.get(db) !== today) {
    await closeEndedDays(db, today);
    closedThrough.set(db, today);
  }
  while (steps.length < maxSteps && !(opts.shouldStop?.() ?? false)) {
    const now = clock();
    const done = await db.transaction(async (tx) => {
      const [batch] = await tx
        .select()
        .from(paymentBatches)
        .where(
          and(
            inArray(paymentBatches.status, ["approved", "processing"]),
            or(isNull(paymentBatches.bankNextStepAt), lte(paymentBatches.bankNextStepAt, now.toISOString())),
            // A batch pushed over a bank channel is the channel's bank's (docs/bank-channels.md).
            sql`not exists (select 1 from bank_channel_outbox o where o.batch_id = ${paymentBatches.id})`,
          ),
        )
        .orderBy(sql`${paymentBatches.bankNextStepAt} asc nulls first`, asc(paymentBatches.id))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!batch) return null;
      const step: BankStep = batch.status === "approved" ? "take" : "settle";
      const status =
        step === "take" ? await takeBatch(tx, batch, now, config.bankSpeed) : await settleBatch(tx, batch, now);
      await opts.beforeCommit?.({ batchId: batch.id, step });
      failpoint("bank.before-commit");
      return { batchId: batch.id, step, status };
    });
    if (!done) break;
    steps.push(done);
  }
  return { steps };
}
