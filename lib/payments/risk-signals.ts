/**
 * Risk signals of a payment batch: what an approver should know before
 * approving, each with the evidence that raised it. Pure functions: the
 * caller (the BFF, when a batch is created and when an approver opens it)
 * gathers the batch, the company's payment history, its counterparties with
 * their change history and the debtor account's available balance; nothing
 * here reads a database or the clock.
 *
 * Conventions: IBANs are compared in electronic format (spaces and case do
 * not matter); amounts are decimal strings compared with decimal.js, and only
 * within one currency (100 EUR never equals 100 SEK); dates are `YYYY-MM-DD`
 * and "within N days" counts whole calendar days, inclusive (a payment
 * exactly 30 days earlier is within 30 days, 31 days is not).
 *
 * Rules (severity in brackets; `high` ones need an acknowledgement to approve):
 * - `new_payee` [medium; low when the IBAN is a verified counterparty's]: the
 *   IBAN was never paid by the company: no settled earlier instruction to it
 *   and no entry in `knownPayees` (IBANs seen in the transactions history).
 *   Not raised when `bank_details_changed` is raised for the same payee (the
 *   name was paid before, to another IBAN: that signal says it, and "never
 *   paid" would contradict it).
 * - `unverified_counterparty` [medium; high from `unverifiedHighAmounts` of
 *   the currency up]: the instruction is not tied to a counterparty (ad-hoc
 *   creditor), or its counterparty is not `verified`, or the instruction's
 *   IBAN is not the counterparty's IBAN.
 * - `bank_details_changed` [high]: a creditor of the same name (case, accents,
 *   punctuation and spacing ignored) was paid to another IBAN before, or the
 *   counterparty of this IBAN had its bank details changed within 30 days of
 *   `today`.
 * - `possible_duplicate` [high]: an instruction of an earlier batch (created
 *   before this one; a batch is never its own duplicate) to the same IBAN
 *   with the same amount and currency dated within 30 days of this batch's
 *   execution date, or with the same end-to-end id, or the same remittance
 *   text (case and spacing ignored); earlier instructions count unless their
 *   batch was rejected or the instruction itself was rejected or cancelled
 *   (no money left: paying it again is a repayment, not a duplicate). Within
 *   the batch, two lines to the same IBAN with the same amount, or with the
 *   same end-to-end id, are flagged as entered twice. A batch the bank has
 *   already taken (approved onwards) gets no duplicate signal: its money has
 *   moved or is moving, and a warning could change nothing.
 *
 * One signal per payee (IBAN) and kind: two instructions of the batch to the
 * same IBAN raising the same rule give one signal (on the first of them,
 * `evidence.instructions` listing all), and the evidence of one rule's several
 * reasons is merged into that one signal.
 *
 * Messages name amounts through `message_amounts` (`{0}`, `{1}` in
 * `message_template`) so each viewer formats them in their own locale;
 * `message` is the same sentence formatted with `formatMoney` (en-GB).
 * - `amount_outlier` [medium]: the amount is over 3 × the median of the last
 *   12 payments (same currency, not rejected / cancelled) to that IBAN.
 * - `insufficient_funds` [high]: the batch total is above the debtor
 *   account's available balance, or above what remains of it after the
 *   open instructions of other approved / processing batches on that account.
 * - `non_banking_day` [low]: the execution date is a Saturday, a Sunday or a
 *   bank holiday of the account's country (or of TARGET2 for EUR); see
 *   bank-holidays.ts for the list.
 */
import anyAscii from "any-ascii";
import { ibanKey } from "../counterparties/validation";
import { ExactDecimal } from "@treasury/contract/exact-decimal";
import { renderSignalMessage, type MessageAmount } from "./signal-message";

export { renderSignalMessage, type MessageAmount };
import { calendarsFor, closingReason } from "./bank-holidays";

export const RISK_SIGNAL_CODES = [
  "new_payee",
  "unverified_counterparty",
  "bank_details_changed",
  "possible_duplicate",
  "amount_outlier",
  "insufficient_funds",
  "non_banking_day",
] as const;
export type RiskSignalCode = (typeof RISK_SIGNAL_CODES)[number];
export { ibanKey };
export type RiskSeverity = "high" | "medium" | "low";

/** Severity per signal; `high` signals need an explicit acknowledgement to approve. */
export const SIGNAL_SEVERITY: Record<RiskSignalCode, RiskSeverity> = {
  new_payee: "medium",
  unverified_counterparty: "medium",
  bank_details_changed: "high",
  possible_duplicate: "high",
  amount_outlier: "medium",
  insufficient_funds: "high",
  non_banking_day: "low",
};

/** Batch states from which the bank has the batch: no duplicate warning can change anything any more. */
export const TAKEN_BATCH_STATES: ReadonlySet<string> = new Set([
  "approved",
  "processing",
  "completed",
  "partially_completed",
  "failed",
  "rejected",
]);

/** Days for "changed recently" and "duplicate within". */
export const RECENT_DAYS = 30;
/** How many recent payments the outlier median uses, and the factor above it. */
export const OUTLIER_WINDOW = 12;
export const OUTLIER_FACTOR = 3;

/** An instruction of the batch under review. */
export interface BatchInstruction {
  amount: string;
  currency: string;
  creditorName: string;
  creditorIban: string;
  endToEndId: string;
  remittanceInformation?: string | null;
  /** The counterparty picked in the form; null / absent = ad-hoc creditor. */
  counterpartyId?: string | null;
}

/** The batch under review (created, or about to be). */
export interface ReviewedBatch {
  /** Its id once created: its own instructions are then ignored in `history`. */
  id?: string | null;
  currency: string;
  debtorAccountId?: string | null;
  /** Requested execution date; absent = `today`. */
  requestedExecutionDate?: string | null;
  /** Its state once created (absent = being created): see `TAKEN_BATCH_STATES`. */
  status?: string | null;
  /** ISO 8601 creation time once created: only batches created before it can be what it duplicates. */
  createdAt?: string | null;
  instructions: readonly BatchInstruction[];
}

/** An earlier instruction of the company (amount, currency, creditor, end-to-end id as a {@link BatchInstruction}), with its batch's state. */
export interface PastInstruction extends Omit<BatchInstruction, "counterpartyId"> {
  batchId: string;
  /** The instruction's id, when known (the payee history looks up a rejection's reason by it). */
  instructionId?: string;
  /** The batch's reference (its name) when it has one. */
  batchReference?: string | null;
  batchStatus: string;
  /** Instruction state: pending, accepted, settled, rejected, cancelled. */
  status: string;
  /** Its execution date (or, lacking one, the batch's creation date), `YYYY-MM-DD`. */
  date: string;
  debtorAccountId?: string | null;
  /** ISO 8601 creation time of its batch (absent = treated as earlier than the batch under review). */
  batchCreatedAt?: string | null;
}

/** A change of a counterparty's bank details (from its history). */
export interface BankDetailsChange {
  /** ISO 8601 timestamp. */
  at: string;
  oldIban: string | null;
  newIban: string | null;
  byEmail?: string | null;
  reason?: string | null;
}

/** A counterparty of the company with its bank-details changes. */
export interface CounterpartyRecord {
  id: string;
  name: string;
  iban: string;
  status: string;
  changes: readonly BankDetailsChange[];
}

export interface RiskContext {
  /** Today's date where the company is, `YYYY-MM-DD`. */
  today: string;
  /** Earlier instructions of the company (any batch state); the batch's own are skipped when it has an id. */
  history: readonly PastInstruction[];
  /** IBANs the company paid outside these batches (debit transactions' counterpart accounts). */
  knownPayees?: readonly { iban: string; date?: string | null }[];
  counterparties: readonly CounterpartyRecord[];
  /**
   * Per currency, the amount from which a payment to an unverified payee is `high` rather than `medium`
   * (decimal strings, e.g. `{ EUR: "50000" }`); a currency not named keeps `medium`.
   */
  unverifiedHighAmounts?: Readonly<Record<string, string>>;
  /** The debtor account with its available balance; absent = no funds check. */
  account?: { id: string; currency: string; availableBalance: string | null; country?: string | null } | null;
}

/** One signal: which rule, how severe, which instruction (null = the whole batch), a sentence, and its evidence. */
export interface RiskSignal {
  code: RiskSignalCode;
  severity: RiskSeverity;
  /** Index into `batch.instructions`, or null for a batch-level signal. */
  instruction: number | null;
  /** One sentence, amounts formatted with `formatMoney` (en-GB). */
  message: string;
  /** The same sentence with `{0}`, `{1}`… where `message_amounts` go (formatted by the viewer). */
  message_template: string;
  message_amounts: MessageAmount[];
  evidence: Record<string, unknown>;
}

const DAY_MS = 86_400_000;

/** Whole days from `a` to `b` (`YYYY-MM-DD`); negative when `b` is earlier. */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);
}

/** The comparison form of a name: transliterated, lower case, letters and digits separated by single spaces. */
export function nameKey(name: string): string {
  return anyAscii(name)
    .toLowerCase()
    .replaceAll(/[^a-z0-9]+/g, " ")
    .trim();
}

function referenceKey(text: string | null | undefined): string | null {
  const k = text?.trim().replaceAll(/\s+/g, " ").toLowerCase();
  return k ? k : null;
}

function sameAmount(a: { amount: string; currency: string }, b: { amount: string; currency: string }): boolean {
  return a.currency === b.currency && new ExactDecimal(a.amount).eq(b.amount);
}

/** Instructions that moved or may still move money: batch not rejected, instruction not rejected / cancelled. */
function live(p: PastInstruction): boolean {
  return p.batchStatus !== "rejected" && p.status !== "rejected" && p.status !== "cancelled";
}

function signal(
  code: RiskSignalCode,
  instruction: number | null,
  template: string,
  evidence: Record<string, unknown>,
  amounts: MessageAmount[] = [],
  severity: RiskSeverity = SIGNAL_SEVERITY[code],
): RiskSignal {
  return {
    code,
    severity,
    instruction,
    message: renderSignalMessage(template, amounts),
    message_template: template,
    message_amounts: amounts,
    evidence,
  };
}

function amountOf(amount: string | ExactDecimal, currency: string): MessageAmount {
  return { amount: typeof amount === "string" ? amount : amount.toFixed(), currency };
}

function pastOf(batch: ReviewedBatch, ctx: RiskContext): PastInstruction[] {
  return batch.id ? ctx.history.filter((p) => p.batchId !== batch.id) : [...ctx.history];
}

/** Earlier instructions created before `batch` (all of them for a batch being created or without a time). */
function earlierOf(batch: ReviewedBatch, ctx: RiskContext): PastInstruction[] {
  const at = batch.createdAt ? Date.parse(batch.createdAt) : Number.NaN;
  return pastOf(batch, ctx).filter((p) => {
    const pAt = p.batchCreatedAt ? Date.parse(p.batchCreatedAt) : Number.NaN;
    return Number.isNaN(at) || Number.isNaN(pAt) || pAt < at;
  });
}

/** The IBAN keys of the company's verified counterparties. */
function verifiedIbans(ctx: RiskContext): Set<string> {
  return new Set(ctx.counterparties.filter((c) => c.status === "verified").map((c) => ibanKey(c.iban)));
}

function executionDate(batch: ReviewedBatch, ctx: RiskContext): string {
  return batch.requestedExecutionDate ?? ctx.today;
}

/** `new_payee`: the instruction's IBAN was never paid (settled) by the company. */
export function newPayeeSignals(batch: ReviewedBatch, ctx: RiskContext): RiskSignal[] {
  const paid = new Set<string>();
  for (const p of pastOf(batch, ctx)) if (p.status === "settled") paid.add(ibanKey(p.creditorIban));
  for (const k of ctx.knownPayees ?? []) paid.add(ibanKey(k.iban));
  const verified = verifiedIbans(ctx);
  return batch.instructions.flatMap((ins, i) => {
    const iban = ibanKey(ins.creditorIban);
    if (paid.has(iban)) return [];
    return verified.has(iban)
      ? [
          signal(
            "new_payee",
            i,
            `First payment to ${ins.creditorName} (${iban}), a verified counterparty.`,
            { iban, verified_counterparty: true },
            [],
            "low",
          ),
        ]
      : [signal("new_payee", i, `${ins.creditorName} (${iban}) has never been paid before.`, { iban })];
  });
}

/** `unverified_counterparty`: ad-hoc creditor, counterparty not verified, or its IBAN is not the instruction's. */
export function unverifiedCounterpartySignals(batch: ReviewedBatch, ctx: RiskContext): RiskSignal[] {
  const byId = new Map(ctx.counterparties.map((c) => [c.id, c]));
  return batch.instructions.flatMap((ins, i) => {
    const raised = unverifiedOf(ins, i);
    const limit = ctx.unverifiedHighAmounts?.[ins.currency];
    if (!raised.length || limit === undefined || new ExactDecimal(ins.amount).lt(limit)) return raised;
    // From the configured amount up, an unchecked payee is not a remark but a reason to stop.
    return raised.map((s) =>
      signal(
        s.code,
        s.instruction,
        `${s.message_template} The payment of {${s.message_amounts.length}} is at or above {${s.message_amounts.length + 1}}.`,
        { ...s.evidence, high_from: amountOf(limit, ins.currency) },
        [...s.message_amounts, amountOf(ins.amount, ins.currency), amountOf(limit, ins.currency)],
        "high",
      ),
    );
  });

  function unverifiedOf(ins: BatchInstruction, i: number): RiskSignal[] {
    const iban = ibanKey(ins.creditorIban);
    const cp = ins.counterpartyId ? byId.get(ins.counterpartyId) : undefined;
    if (!cp) {
      const verifiedSameIban = ctx.counterparties.find((c) => c.status === "verified" && ibanKey(c.iban) === iban);
      return [
        signal("unverified_counterparty", i, `${ins.creditorName} is not a verified counterparty (ad-hoc creditor).`, {
          reason: "ad_hoc",
          iban,
          ...(verifiedSameIban ? { verified_counterparty_with_this_iban: verifiedSameIban.id } : {}),
        }),
      ];
    }
    if (ibanKey(cp.iban) !== iban)
      return [
        signal("unverified_counterparty", i, `The IBAN ${iban} is not the IBAN of counterparty ${cp.name}.`, {
          reason: "iban_differs",
          counterparty_id: cp.id,
          counterparty_iban: ibanKey(cp.iban),
          iban,
        }),
      ];
    if (cp.status !== "verified")
      return [
        signal("unverified_counterparty", i, `${cp.name} is ${cp.status.replaceAll("_", " ")}, not verified.`, {
          reason: cp.status,
          counterparty_id: cp.id,
        }),
      ];
    return [];
  }
}

/** `bank_details_changed`: the name paid to another IBAN before, or the counterparty changed within 30 days. */
export function bankDetailsChangedSignals(batch: ReviewedBatch, ctx: RiskContext): RiskSignal[] {
  const past = pastOf(batch, ctx).filter(live);
  return batch.instructions.flatMap((ins, i) => {
    const iban = ibanKey(ins.creditorIban);
    const out: RiskSignal[] = [];
    const cp = ins.counterpartyId ? ctx.counterparties.find((c) => c.id === ins.counterpartyId) : undefined;
    const names = new Set([nameKey(ins.creditorName), ...(cp ? [nameKey(cp.name)] : [])]);
    const otherIbans = new Map<string, string>();
    for (const p of past) {
      const pIban = ibanKey(p.creditorIban);
      if (pIban === iban || !names.has(nameKey(p.creditorName))) continue;
      const seen = otherIbans.get(pIban);
      if (!seen || seen < p.date) otherIbans.set(pIban, p.date);
    }
    if (otherIbans.size)
      out.push(
        signal("bank_details_changed", i, `${ins.creditorName} was paid to another IBAN before.`, {
          reason: "name_paid_to_other_iban",
          iban,
          previous_ibans: [...otherIbans].map(([prev, lastPaid]) => ({ iban: prev, last_paid: lastPaid })),
        }),
      );
    // The counterparty chosen, or any counterparty holding this IBAN now.
    const related = ctx.counterparties.filter((c) => c.id === cp?.id || ibanKey(c.iban) === iban);
    for (const c of related) {
      const recent = c.changes.filter((ch) => {
        // The change's UTC date against today: whole days, so exactly 30 days ago still counts.
        const age = daysBetween(new Date(ch.at).toISOString().slice(0, 10), ctx.today);
        return age <= RECENT_DAYS;
      });
      if (recent.length)
        out.push(
          signal(
            "bank_details_changed",
            i,
            `The bank details of ${c.name} changed within the last ${RECENT_DAYS} days.`,
            {
              reason: "counterparty_changed_recently",
              counterparty_id: c.id,
              changes: recent.map((ch) => ({
                at: ch.at,
                old_iban: ch.oldIban,
                new_iban: ch.newIban,
                by: ch.byEmail ?? null,
                reason: ch.reason ?? null,
              })),
            },
          ),
        );
    }
    return out;
  });
}

/** `possible_duplicate`: same IBAN + amount + currency within 30 days, or the same end-to-end id or remittance text. */
export function possibleDuplicateSignals(batch: ReviewedBatch, ctx: RiskContext): RiskSignal[] {
  if (batch.status && TAKEN_BATCH_STATES.has(batch.status)) return [];
  const date = executionDate(batch, ctx);
  const past = earlierOf(batch, ctx).filter(live);
  return batch.instructions.flatMap((ins, i) => {
    const iban = ibanKey(ins.creditorIban);
    const e2e = referenceKey(ins.endToEndId);
    const rem = referenceKey(ins.remittanceInformation);
    const matches: Record<string, unknown>[] = [];
    for (const p of past) {
      const why: string[] = [];
      if (ibanKey(p.creditorIban) === iban && sameAmount(p, ins) && Math.abs(daysBetween(p.date, date)) <= RECENT_DAYS)
        why.push("same_iban_and_amount");
      if (e2e && referenceKey(p.endToEndId) === e2e) why.push("same_end_to_end_id");
      if (rem && referenceKey(p.remittanceInformation) === rem) why.push("same_remittance");
      if (why.length)
        matches.push({
          batch_id: p.batchId,
          batch_status: p.batchStatus,
          date: p.date,
          amount: p.amount,
          currency: p.currency,
          creditor_name: p.creditorName,
          iban: ibanKey(p.creditorIban),
          end_to_end_id: p.endToEndId,
          why,
        });
    }
    const twice: number[] = [];
    batch.instructions.forEach((other, j) => {
      if (j === i) return;
      // Inside the batch only a line entered twice counts (a shared remittance text such as "Salaries" does not).
      const why: string[] = [];
      if (ibanKey(other.creditorIban) === iban && sameAmount(other, ins)) why.push("same_iban_and_amount");
      if (e2e && referenceKey(other.endToEndId) === e2e) why.push("same_end_to_end_id");
      if (why.length) {
        twice.push(j);
        matches.push({ same_batch_instruction: j, amount: other.amount, currency: other.currency, why });
      }
    });
    if (!matches.length) return [];
    const money = [amountOf(ins.amount, ins.currency)];
    const earlier = matches.length > twice.length;
    const template = earlier
      ? `${ins.creditorName}: {0} may have been paid already.`
      : `${ins.creditorName}: {0} is in this batch twice.`;
    return [signal("possible_duplicate", i, template, { matches }, money)];
  });
}

/** The median of decimal strings (the mean of the middle two for an even count). */
export function median(amounts: readonly string[]): ExactDecimal | null {
  if (!amounts.length) return null;
  const sorted = amounts.map((a) => new ExactDecimal(a)).sort((a, b) => a.comparedTo(b));
  const mid = Math.floor(sorted.length / 2);
  const hi = sorted[mid];
  const lo = sorted[sorted.length % 2 ? mid : mid - 1];
  return hi && lo ? hi.plus(lo).div(2) : null;
}

/** `amount_outlier`: over 3 × the median of the last 12 payments to the IBAN in the same currency. */
export function amountOutlierSignals(batch: ReviewedBatch, ctx: RiskContext): RiskSignal[] {
  const past = pastOf(batch, ctx).filter(live);
  return batch.instructions.flatMap((ins, i) => {
    const iban = ibanKey(ins.creditorIban);
    const recent = past
      .filter((p) => ibanKey(p.creditorIban) === iban && p.currency === ins.currency)
      .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))
      .slice(0, OUTLIER_WINDOW);
    const m = median(recent.map((p) => p.amount));
    if (!m || m.isZero() || !new ExactDecimal(ins.amount).gt(m.times(OUTLIER_FACTOR))) return [];
    return [
      signal(
        "amount_outlier",
        i,
        `{0} is over ${OUTLIER_FACTOR}× the usual {1} paid to ${ins.creditorName}.`,
        {
          iban,
          median: m.toFixed(),
          factor: new ExactDecimal(ins.amount).div(m).toDecimalPlaces(2).toFixed(),
          payments: recent.map((p) => ({ date: p.date, amount: p.amount, batch_id: p.batchId })),
        },
        [amountOf(ins.amount, ins.currency), amountOf(m, ins.currency)],
      ),
    ];
  });
}

/** `insufficient_funds`: the batch total above the available balance, or above what approved batches leave of it. */
export function insufficientFundsSignals(batch: ReviewedBatch, ctx: RiskContext): RiskSignal[] {
  const acc = ctx.account;
  if (!acc || acc.availableBalance === null || acc.currency !== batch.currency) return [];
  const total = batch.instructions.reduce((s, ins) => s.plus(ins.amount), new ExactDecimal(0));
  const available = new ExactDecimal(acc.availableBalance);
  // Approved batches the bank has not finished: their open instructions are still to be debited.
  const committedBatches = new Map<string, ExactDecimal>();
  for (const p of pastOf(batch, ctx))
    if (
      p.debtorAccountId === acc.id &&
      p.currency === acc.currency &&
      (p.batchStatus === "approved" || p.batchStatus === "processing") &&
      (p.status === "pending" || p.status === "accepted")
    )
      committedBatches.set(p.batchId, (committedBatches.get(p.batchId) ?? new ExactDecimal(0)).plus(p.amount));
  const committed = [...committedBatches.values()].reduce((s, v) => s.plus(v), new ExactDecimal(0));
  const evidence = {
    account_id: acc.id,
    currency: acc.currency,
    available_balance: available.toFixed(),
    batch_total: total.toFixed(),
    committed: committed.toFixed(),
    committed_batches: [...committedBatches].map(([id, amount]) => ({ batch_id: id, amount: amount.toFixed() })),
  };
  if (total.gt(available))
    return [
      signal(
        "insufficient_funds",
        null,
        "The batch total {0} is above the available balance {1}.",
        { ...evidence, reason: "above_available", shortfall: total.minus(available).toFixed() },
        [amountOf(total, acc.currency), amountOf(available, acc.currency)],
      ),
    ];
  if (total.plus(committed).gt(available))
    return [
      signal(
        "insufficient_funds",
        null,
        "With approved batches of {0} still to be paid from this account, the balance does not cover this batch.",
        {
          ...evidence,
          reason: "above_available_after_approved",
          shortfall: total.plus(committed).minus(available).toFixed(),
        },
        [amountOf(committed, acc.currency)],
      ),
    ];
  return [];
}

/** `non_banking_day`: the execution date falls on a weekend or a bank holiday. */
export function nonBankingDaySignals(batch: ReviewedBatch, ctx: RiskContext): RiskSignal[] {
  const date = executionDate(batch, ctx);
  const country = ctx.account?.country ?? null;
  const why = closingReason(date, calendarsFor(country, batch.currency));
  if (!why) return [];
  const what = why.kind === "weekend" ? `a ${why.weekday}` : `${why.name} (${why.calendar})`;
  return [
    signal(
      "non_banking_day",
      null,
      `The execution date ${date} is ${what}: the bank executes on the next banking day.`,
      {
        date,
        ...why,
      },
    ),
  ];
}

/**
 * Every signal of `batch`, batch-level ones first, then per instruction in
 * order. Inputs are trusted to be well-formed (amounts decimal strings, dates
 * `YYYY-MM-DD`); a malformed amount throws decimal.js's error.
 */
export function computeRiskSignals(batch: ReviewedBatch, ctx: RiskContext): RiskSignal[] {
  const all = [
    ...insufficientFundsSignals(batch, ctx),
    ...nonBankingDaySignals(batch, ctx),
    ...bankDetailsChangedSignals(batch, ctx),
    ...possibleDuplicateSignals(batch, ctx),
    ...unverifiedCounterpartySignals(batch, ctx),
    ...newPayeeSignals(batch, ctx),
    ...amountOutlierSignals(batch, ctx),
  ];
  return onePerPayeeAndKind(batch, all).sort((a, b) => (a.instruction ?? -1) - (b.instruction ?? -1));
}

const SEVERITY_RANK: Record<RiskSeverity, number> = { high: 2, medium: 1, low: 0 };

/**
 * Folds `signals` to one per payee (IBAN) and kind and drops contradictions:
 * a payee whose name was paid to another IBAN (`bank_details_changed`) is not
 * also "never paid" (`new_payee`). A folded signal keeps the first sentence,
 * the highest severity, and lists every instruction and piece of evidence.
 */
export function onePerPayeeAndKind(batch: ReviewedBatch, signals: readonly RiskSignal[]): RiskSignal[] {
  const payeeOf = (s: RiskSignal) => {
    const ins = s.instruction === null ? undefined : batch.instructions[s.instruction];
    return ins ? ibanKey(ins.creditorIban) : null;
  };
  const changed = new Set(signals.filter((s) => s.code === "bank_details_changed").map(payeeOf));
  const out: RiskSignal[] = [];
  const byKey = new Map<
    string,
    { signal: RiskSignal; instructions: Set<number>; evidence: Record<string, unknown>[] }
  >();
  for (const s of signals) {
    const payee = payeeOf(s);
    if (payee === null) {
      out.push(s);
      continue;
    }
    if (s.code === "new_payee" && changed.has(payee)) continue;
    const key = `${s.code}|${payee}`;
    const seen = byKey.get(key);
    if (!seen) {
      const entry = { signal: s, instructions: new Set([s.instruction ?? 0]), evidence: [s.evidence] };
      byKey.set(key, entry);
      out.push(s);
      continue;
    }
    seen.instructions.add(s.instruction ?? 0);
    if (!seen.evidence.some((e) => JSON.stringify(e) === JSON.stringify(s.evidence))) seen.evidence.push(s.evidence);
    const merged: RiskSignal = {
      ...seen.signal,
      severity: SEVERITY_RANK[s.severity] > SEVERITY_RANK[seen.signal.severity] ? s.severity : seen.signal.severity,
      evidence:
        seen.evidence.length === 1
          ? { ...seen.evidence[0], instructions: [...seen.instructions] }
          : { instructions: [...seen.instructions], reasons: seen.evidence },
    };
    out[out.indexOf(seen.signal)] = merged;
    seen.signal = merged;
  }
  return out;
}

/** True when any signal needs an acknowledgement before approval. */
export function hasHighRisk(signals: readonly RiskSignal[]): boolean {
  return signals.some((s) => s.severity === "high");
}
