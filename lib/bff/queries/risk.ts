/**
 * Risk signals of a payment batch, computed on the server when the batch is
 * viewed (creator before submitting, approvers in the queue and the dialog)
 * and again when it is approved. This module gathers the input of the pure
 * rules in lib/payments/risk-signals.ts:
 *
 * - the company's payment history from the Treasury API: its batches created
 *   in the last `HISTORY_DAYS` days (at most `HISTORY_MAX_BATCHES`, newest
 *   first) with their instructions; each instruction dated by its batch's
 *   execution date, else the batch's creation date;
 * - known payees from the transactions history: the API's transactions carry
 *   no counterparty IBAN, so a debit booked with the end-to-end id of an
 *   earlier instruction marks that instruction's IBAN as paid (the bank
 *   statement confirms the payment even where the instruction's state lags);
 * - the company's counterparties with their bank-details changes
 *   (`counterpartiesForRisk`, dashboard database);
 * - the debtor account (the API's debtor-account read: the account the batch
 *   names, else the first active account in the batch currency) with its
 *   latest available balance, and the debtor accounts of approved batches
 *   still to be paid (for the "after approved batches" funds check).
 *
 * Results are cached per company and batch for `RISK_CACHE_MS`, each earlier
 * batch's instructions per batch and status for as long; the batch list is
 * read every time. An approval recomputes the signals (`fresh`).
 */
import "server-only";
import { businessToday } from "@treasury/contract/business-date";
import type { Company, PaymentBatch, PaymentInstruction, Transaction } from "@treasury/contract";
import { remittanceText } from "@treasury/contract/payments";
import { counterpartiesForRisk } from "../../counterparties/counterparties";
import { addDaysIso } from "../../dates";
import {
  computeRiskSignals,
  ibanKey,
  type PastInstruction,
  type RiskContext,
  type RiskSignalCode,
} from "../../payments/risk-signals";
import { RiskUnverifiedHigh } from "../../server/env";
import { dashboardDb } from "../../server/db";
import { treasury } from "../../server/treasury";
import { collectAll, type CallContext } from "../../treasury-client";
import type { BatchRisk, PayeePayment, RiskDebtorAccount, RiskSignalView } from "../../views/payments";
import { mayUseCompany } from "../company";
import type { BffContext } from "../context";
import { BffError } from "../errors";
import { TtlCache } from "../ttl-cache";
import { mapLimit } from "./map-limit";

/** How far back the payment history reaches (days of batch creation). */
export const HISTORY_DAYS = 400;
/** Most earlier batches read for the history (newest first). */
export const HISTORY_MAX_BATCHES = 200;
/** Lifetime of cached signals and histories. */
export const RISK_CACHE_MS = 30_000;
/** Payments shown in a payee's history. */
export const PAYEE_HISTORY_SIZE = 12;

const g = globalThis as typeof globalThis & {
  __riskCache?: TtlCache<BatchRisk>;
  __riskInstructionCache?: TtlCache<PastInstruction[]>;
  __riskDebitCache?: TtlCache<Transaction[]>;
};
const riskCache = (g.__riskCache ??= new TtlCache<BatchRisk>({ ttlMs: RISK_CACHE_MS, maxEntries: 2_000 }));
const instructionCache = (g.__riskInstructionCache ??= new TtlCache<PastInstruction[]>({
  ttlMs: RISK_CACHE_MS,
  maxEntries: 20_000,
}));
const debitCache = (g.__riskDebitCache ??= new TtlCache<Transaction[]>({ ttlMs: RISK_CACHE_MS, maxEntries: 200 }));

interface CompanyHistory {
  instructions: PastInstruction[];
  knownPayees: { iban: string; date: string }[];
  batches: number;
  since: string;
  truncated: boolean;
}

/** Today's date (`YYYY-MM-DD`) where a company in `country` is; UTC for a country without a known zone. */
export function companyToday(country: string | null | undefined, now = new Date()): string {
  return businessToday(country, now);
}

/**
 * The company a risk read runs in: `companyId` when given (one of the user's, 403 otherwise),
 * else the selected company. @throws BffError 403.
 */
export function riskCompany(ctx: BffContext, companyId: string | undefined): Company {
  if (companyId) {
    const c = ctx.companies.find((x) => x.id === companyId);
    if (!c || !mayUseCompany(ctx.user, ctx.companies, companyId))
      throw new BffError("permission_denied", "You do not have access to this company.", { company_id: companyId });
    return c;
  }
  if (!ctx.company)
    throw new BffError("permission_denied", "No company is available to you. Ask an administrator for access.");
  return ctx.company;
}

/** The reads of one company; `fresh` (an approval's recomputation) skips the upstream cache. */
function callIn(ctx: BffContext, companyId: string, fresh = false): CallContext {
  return {
    requestId: ctx.requestId,
    companyId,
    outcome: ctx.upstream,
    ...(fresh ? { cache: "no-store" as const } : {}),
  };
}

function pastOf(b: PaymentBatch, ins: PaymentInstruction, debtorAccountId: string | null): PastInstruction {
  return {
    batchId: b.id,
    instructionId: ins.id,
    batchReference: b.reference ?? null,
    batchStatus: b.status,
    status: ins.status ?? "pending",
    date: b.requested_execution_date ?? b.created_at.slice(0, 10),
    amount: ins.amount,
    currency: ins.currency,
    creditorName: ins.creditor_name,
    creditorIban: ins.creditor_iban,
    endToEndId: ins.end_to_end_id,
    remittanceInformation: remittanceText(ins.remittance_information),
    debtorAccountId,
    batchCreatedAt: b.created_at,
  };
}

/**
 * The counterparty an instruction pays, found by IBAN (the API keeps no link):
 * the company's verified counterparty with that IBAN, else any other with it
 * (pending, rejected, disabled: the signal then names its status); undefined
 * for an ad-hoc creditor.
 */
export function counterpartyOf(
  counterparties: readonly { id: string; iban: string; status: string }[],
  iban: string,
): string | undefined {
  const key = ibanKey(iban);
  const same = counterparties.filter((c) => ibanKey(c.iban) === key);
  return (same.find((c) => c.status === "verified") ?? same[0])?.id;
}

/**
 * The company's bounded payment history and the payees its bank statements
 * confirm. The batch list is read on every call, so a batch created a moment
 * ago is never missing (a duplicate must be seen at once); each batch's
 * instructions are cached per batch and status, the debit transactions per
 * company and day.
 */
async function companyHistory(
  ctx: BffContext,
  companyId: string,
  today: string,
  fresh: boolean,
): Promise<CompanyHistory> {
  const call = callIn(ctx, companyId, fresh);
  const since = addDaysIso(today, -HISTORY_DAYS);
  // The API lists newest first: one page of HISTORY_MAX_BATCHES is the most recent history.
  const page = await treasury().listBatches(call, { from_date: since, pageSize: HISTORY_MAX_BATCHES });
  const kept = page.items;
  const perBatch = await mapLimit(kept, 6, (b) =>
    instructionCache.get(`${companyId}|${b.id}|${b.status}`, async () => {
      const ins = await collectAll(treasury().listBatchInstructions(call, b.id, { pageSize: 1000 }), { maxPages: 10 });
      // Approved batches still to be paid: their account matters for the funds check.
      let debtor: string | null = null;
      if (b.status === "approved" || b.status === "processing")
        debtor = await treasury()
          .getBatchDebtorAccount(call, b.id)
          .then((d) => d.account_id)
          .catch(() => null);
      return ins.map((i) => pastOf(b, i, debtor));
    }),
  );
  const instructions = perBatch.flat();
  const byE2e = new Map(instructions.map((p) => [p.endToEndId, p]));
  const debits = await debitCache
    .get(`${companyId}|${today}`, () =>
      collectAll(
        treasury().listTransactions(call, { from_date: since, to_date: today, direction: "debit", pageSize: 1000 }),
        { maxPages: 10 },
      ),
    )
    .catch(() => []);
  const knownPayees = debits.flatMap((t) => {
    const p = t.end_to_end_id ? byE2e.get(t.end_to_end_id) : undefined;
    return p ? [{ iban: p.creditorIban, date: t.booked_date ?? t.booked_at.slice(0, 10) }] : [];
  });
  return { instructions, knownPayees, batches: kept.length, since, truncated: page.next !== null };
}

/** The debtor account of `batch` with its latest available balance; null when none can be found. */
async function debtorAccount(call: CallContext, batch: PaymentBatch, today: string): Promise<RiskDebtorAccount | null> {
  let account: { account_id: string; name: string; currency: string } | null = await treasury()
    .getBatchDebtorAccount(call, batch.id)
    .catch(() => null);
  if (!account) {
    // An API without the debtor-account read: the first active account in the batch currency, by name then id.
    const accounts = await collectAll(
      treasury().listAccounts(call, { currency: batch.currency, status: "active", pageSize: 1000 }),
    ).catch(() => []);
    const first = [...accounts].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))[0];
    account = first ? { account_id: first.id, name: first.name, currency: first.currency } : null;
  }
  if (!account) return null;
  const available = await availableBalanceOf(call, account.account_id, today);
  return {
    account_id: account.account_id,
    name: account.name,
    currency: account.currency,
    available_balance: available?.balance ?? null,
    available_as_of: available?.as_of_date ?? null,
  };
}

/**
 * The latest available balance of an account (closing or interim available,
 * the later date first, interim over closing on the same date) within the
 * week up to `today`; null when none is reported (or the read fails).
 */
export async function availableBalanceOf(
  call: CallContext,
  accountId: string,
  today: string,
): Promise<{ balance: string; as_of_date: string } | null> {
  const balances = await collectAll(
    treasury().listAccountBalances(call, accountId, {
      from_date: addDaysIso(today, -7),
      to_date: today,
      pageSize: 1000,
    }),
  ).catch(() => []);
  const available = balances
    .filter((b) => b.balance_type === "closing_available" || b.balance_type === "interim_available")
    .sort((a, b) => a.as_of_date.localeCompare(b.as_of_date) || (a.balance_type === "interim_available" ? 1 : -1))
    .at(-1);
  return available ? { balance: available.balance, as_of_date: available.as_of_date } : null;
}

async function computeBatchRisk(
  ctx: BffContext,
  company: Company,
  batchId: string,
  fresh: boolean,
  known?: PaymentBatch,
): Promise<BatchRisk> {
  const call = callIn(ctx, company.id, fresh);
  const today = companyToday(company.country);
  const batch = known ?? (await treasury().getBatch(call, batchId));
  const [instructions, history, counterparties, account] = await Promise.all([
    collectAll(treasury().listBatchInstructions(call, batchId, { pageSize: 1000 }), { maxPages: 20 }),
    companyHistory(ctx, company.id, today, fresh),
    dashboardDb().then((db) => counterpartiesForRisk(db, ctx.user, company.id)),
    debtorAccount(call, batch, today),
  ]);
  const riskCtx: RiskContext = {
    today,
    history: history.instructions,
    knownPayees: history.knownPayees,
    counterparties,
    unverifiedHighAmounts: RiskUnverifiedHigh.parse(process.env.DASHBOARD_RISK_UNVERIFIED_HIGH),
    account: account
      ? {
          id: account.account_id,
          currency: account.currency,
          availableBalance: account.available_balance,
          country: company.country,
        }
      : null,
  };
  const signals = computeRiskSignals(
    {
      id: batch.id,
      currency: batch.currency,
      debtorAccountId: account?.account_id ?? null,
      requestedExecutionDate: batch.requested_execution_date,
      status: batch.status,
      createdAt: batch.created_at,
      instructions: instructions.map((i) => ({
        amount: i.amount,
        currency: i.currency,
        creditorName: i.creditor_name,
        creditorIban: i.creditor_iban,
        endToEndId: i.end_to_end_id,
        remittanceInformation: remittanceText(i.remittance_information),
        counterpartyId: counterpartyOf(counterparties, i.creditor_iban),
      })),
    },
    riskCtx,
  );
  const views: RiskSignalView[] = signals.map((s) => {
    const ins = s.instruction === null ? undefined : instructions[s.instruction];
    return {
      ...s,
      end_to_end_id: ins?.end_to_end_id ?? null,
      creditor_name: ins?.creditor_name ?? null,
      creditor_iban: ins ? ibanKey(ins.creditor_iban) : null,
    };
  });
  // Severity is per signal (an unverified payee is high from the configured amount up), not per code.
  const high = [...new Set(signals.filter((s) => s.severity === "high").map((s) => s.code))];
  return {
    batch_id: batch.id,
    company_id: company.id,
    computed_at: new Date().toISOString(),
    signals: views,
    requires_acknowledgement: high,
    debtor_account: account,
    history: {
      batches: history.batches,
      instructions: history.instructions.length,
      since: history.since,
      truncated: history.truncated,
    },
  };
}

/**
 * Batch `batchId` read from the Treasury API past its cache, in company `companyId` (default: the selected
 * company): the one read of the batch an approval makes (its four-eyes check, risk signals and policy share it).
 * @throws BffError 403 (company), TreasuryApiError 404 (batch not in the company).
 */
export function freshBatch(ctx: BffContext, batchId: string, companyId?: string): Promise<PaymentBatch> {
  return treasury().getBatch(callIn(ctx, riskCompany(ctx, companyId).id, true), batchId);
}

/**
 * The risk signals of batch `batchId` in company `companyId` (default: the
 * selected company), each with its evidence. Cached per batch for
 * `RISK_CACHE_MS`; `fresh` recomputes (an approval does); `batch`, when the
 * caller has just read it, saves reading it again.
 * @throws BffError 403 (company), TreasuryApiError 404 (batch not in the company).
 */
export function batchRisk(
  ctx: BffContext,
  batchId: string,
  companyId?: string,
  opts: { fresh?: boolean; batch?: PaymentBatch } = {},
): Promise<BatchRisk> {
  const company = riskCompany(ctx, companyId);
  const key = `${company.id}|${batchId}`;
  if (opts.fresh) riskCache.dropPrefix(key);
  return riskCache.get(key, () => computeBatchRisk(ctx, company, batchId, opts.fresh ?? false, opts.batch));
}

/**
 * The last `PAYEE_HISTORY_SIZE` payments of the company to `iban` (any
 * formatting), newest first, from the same bounded history as the signals;
 * the instructions of `excludeBatchId` (the batch under review) are left out.
 * @throws BffError 403 (company).
 */
export async function payeeHistory(
  ctx: BffContext,
  iban: string,
  companyId?: string,
  excludeBatchId?: string,
): Promise<{ iban: string; payments: PayeePayment[] }> {
  const company = riskCompany(ctx, companyId);
  const key = ibanKey(iban);
  const history = await companyHistory(ctx, company.id, companyToday(company.country), false);
  const payments = history.instructions
    .filter((p) => ibanKey(p.creditorIban) === key && p.batchId !== excludeBatchId)
    .sort((a, b) => b.date.localeCompare(a.date) || b.batchId.localeCompare(a.batchId))
    .slice(0, PAYEE_HISTORY_SIZE)
    .map((p) => ({
      batch_id: p.batchId,
      batch_reference: p.batchReference ?? null,
      batch_status: p.batchStatus,
      status: p.status,
      date: p.date,
      amount: p.amount,
      currency: p.currency,
      creditor_name: p.creditorName,
      end_to_end_id: p.endToEndId,
      instruction_id: p.instructionId,
    }));
  // A payment the bank rejected shows the bank's reason (its status event; docs/bank-files.md).
  const rejectedBatches = [...new Set(payments.filter((p) => p.status === "rejected").map((p) => p.batch_id))];
  const call = callIn(ctx, company.id, false);
  const reasons = new Map<string, { reason: string | null; text: string | null }>();
  await mapLimit(rejectedBatches, 4, async (batchId) => {
    const events = await treasury().listStatusEvents(call, { batch_id: batchId, pageSize: 1000 });
    for (const e of events.items)
      if (e.status === "rejected")
        reasons.set(e.instruction_id, { reason: e.reason ?? null, text: e.reason_text ?? null });
  });
  return {
    iban: key,
    payments: payments.map(({ instruction_id, ...p }) => {
      const r = instruction_id ? reasons.get(instruction_id) : undefined;
      return r ? { ...p, reason: r.reason, reason_text: r.text } : p;
    }),
  };
}

/** The high-severity codes of `risk` that `acknowledged` does not name. */
export function missingAcknowledgements(
  risk: Pick<BatchRisk, "requires_acknowledgement">,
  acknowledged: readonly string[] | undefined,
): RiskSignalCode[] {
  const given = new Set(acknowledged ?? []);
  return risk.requires_acknowledgement.filter((c) => !given.has(c));
}
