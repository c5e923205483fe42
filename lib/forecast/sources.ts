/**
 * The forecast's real inputs, shaped from what the Treasury API and the dashboard DB return
 * (docs/forecast.md#where-the-data-comes-from): booked transactions categorised by the cashflow category rules
 * become the history, approved and pending payment batches become known flows on their execution dates, the
 * latest position per company and currency is the opening balance, and the stored EUR-based rates become one
 * rate per currency to the reporting currency (the latest stored rate, labelled with its date). Pure; no I/O.
 */
import Decimal from "decimal.js";
import type { PaymentBatch, PositionDay, Transaction } from "@treasury/contract";
import { categorise, type CategoryRule } from "../categories/rules";
import type { BucketRow } from "./engine";
import { fromUnits, timesRate, toUnits } from "./fixed";
import type { FxRate } from "./scenario";
import type { HistoryTxn, KnownBatch } from "./types";

/** The category every payment batch is forecast under (a batch has no category of its own). */
export const BATCH_CATEGORY = "Payment batches";

/** Decimals of a cross rate: the forecast's fixed-point sums keep 6 (lib/forecast/fixed.ts). */
const RATE_DECIMALS = 6;

/**
 * One company's booked transactions as forecast history: the booking date (`booked_date`, else the date part of
 * `booked_at`), the amount signed by direction (credit positive), the category of the first matching rule.
 */
export function toHistory(
  companyId: string,
  txs: readonly Transaction[],
  rules: readonly CategoryRule[],
): HistoryTxn[] {
  const ordered = [...rules].sort((a, b) => a.position - b.position);
  return txs.map((t) => ({
    date: t.booked_date ?? t.booked_at.slice(0, 10),
    company: companyId,
    currency: t.currency,
    category: categorise(ordered, t),
    amount: t.direction === "credit" ? t.amount : `-${t.amount}`,
    counterparty: t.counterparty_name,
  }));
}

/**
 * The batches that will still move money: approved, and pending approval (`pending_approval`), debited on their
 * requested execution date, or the day after `asOf` when they have none (the earliest they could go). Others
 * (created, rejected, processing, done, failed) are left out: created is a draft, processing is already on its way
 * and shows in the bank's next statement.
 */
export function toKnownBatches(companyId: string, batches: readonly PaymentBatch[], nextDay: string): KnownBatch[] {
  const out: KnownBatch[] = [];
  for (const b of batches) {
    if (b.status !== "approved" && b.status !== "pending_approval") continue;
    const amount = new Decimal(b.total_amount);
    if (amount.isZero()) continue;
    out.push({
      id: b.id,
      status: b.status === "approved" ? "approved" : "pending",
      execution_date:
        b.requested_execution_date && b.requested_execution_date > nextDay ? b.requested_execution_date : nextDay,
      company: companyId,
      currency: b.currency,
      category: BATCH_CATEGORY,
      amount: amount.abs().neg().toFixed(),
      label: b.reference ?? `${b.status === "approved" ? "approved" : "pending"} batch`,
    });
  }
  return out;
}

/** The latest position per currency of one company as opening balances (`positions` from `GET /reporting/positions/daily`). */
export function toOpenings(
  companyId: string,
  positions: readonly PositionDay[],
): { company: string; currency: string; amount: string; date: string }[] {
  const latest = new Map<string, PositionDay>();
  for (const p of positions) {
    const had = latest.get(p.currency);
    if (!had || p.date > had.date) latest.set(p.currency, p);
  }
  return [...latest.values()]
    .sort((a, b) => (a.currency < b.currency ? -1 : 1))
    .map((p) => ({ company: companyId, currency: p.currency, amount: p.balance, date: p.date }));
}

/**
 * One rate per currency to `reporting`: `1 currency = rate reporting`, crossed through EUR from the latest stored
 * EUR-based rates (`1 EUR = rate quote`), dated with the older of the two legs. The reporting currency itself is
 * absent (its rate is 1); a currency without a stored rate (or a reporting currency without one) is absent too —
 * `balances()` names it in `missing_rates`.
 */
export function ratesToReporting(
  reporting: string,
  currencies: readonly string[],
  latestEurRates: readonly { quote: string; rate: string; date: string }[],
): Record<string, FxRate> {
  const eur = new Map<string, { rate: Decimal; date: string }>([["EUR", { rate: new Decimal(1), date: "" }]]);
  for (const r of latestEurRates) {
    const had = eur.get(r.quote);
    if (!had || r.date > had.date) eur.set(r.quote, { rate: new Decimal(r.rate), date: r.date });
  }
  const target = eur.get(reporting);
  const out: Record<string, FxRate> = {};
  if (!target) return out;
  for (const c of currencies) {
    if (c === reporting) continue;
    const from = eur.get(c);
    if (!from || from.rate.isZero()) continue;
    const dates = [from.date, target.date].filter(Boolean).sort();
    out[c] = {
      rate: target.rate.div(from.rate).toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_HALF_UP).toFixed(),
      date: dates[0] ?? "",
    };
  }
  return out;
}

/** One bucket of the group: every company, currency and category summed in the reporting currency. */
export interface GroupBucket {
  start: string;
  end: string;
  amount: string;
  p10: string;
  p90: string;
}

/**
 * Sums bucket rows (lib/forecast/engine.ts `bucket`) into one row per bucket in `reporting`, each currency at its
 * rate in `fx` (2 decimals, half away from zero after the sum). Rows in a currency without a rate are left out;
 * their currencies are returned in `missing` so the page can say so.
 */
export function groupBuckets(
  rows: readonly BucketRow[],
  reporting: string,
  fx: Readonly<Record<string, FxRate>>,
): { buckets: GroupBucket[]; missing: string[] } {
  const acc = new Map<string, { start: string; end: string; a: bigint; lo: bigint; hi: bigint }>();
  const missing = new Set<string>();
  for (const r of rows) {
    const rate = r.currency === reporting ? "1" : fx[r.currency]?.rate;
    if (!rate) {
      missing.add(r.currency);
      continue;
    }
    let e = acc.get(r.start);
    if (!e) acc.set(r.start, (e = { start: r.start, end: r.end, a: 0n, lo: 0n, hi: 0n }));
    e.a += timesRate(toUnits(r.amount), rate);
    e.lo += timesRate(toUnits(r.p10), rate);
    e.hi += timesRate(toUnits(r.p90), rate);
  }
  const buckets = [...acc.values()]
    .sort((x, y) => (x.start < y.start ? -1 : 1))
    .map((e) => ({
      start: e.start,
      end: e.end,
      amount: fromUnits(e.a, 2),
      p10: fromUnits(e.lo, 2),
      p90: fromUnits(e.hi, 2),
    }));
  return { buckets, missing: [...missing].sort() };
}
