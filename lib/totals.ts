/**
 * Per-currency aggregates for the read views (docs/treasury-api.md#conventions: aggregates are
 * interpreted per currency; report figures are exact decimals, never
 * floats, so they add up to the cent). Amounts in and out are decimal strings; arithmetic is decimal.js;
 * a result keeps the largest scale of its inputs ("100.50" + "0.50" is
 * "101.00"), so totals line up with the rows above them.
 */
import { ExactDecimal as Decimal } from "@treasury/contract/exact-decimal";
import { scaleOf as scale } from "./money";

class Acc {
  sum = new Decimal(0);
  dp = 0;
  count = 0;
  add(amount: string): void {
    this.sum = this.sum.plus(amount);
    this.dp = Math.max(this.dp, scale(amount));
    this.count += 1;
  }
  value(): string {
    return this.sum.toFixed(this.dp);
  }
}

/** Exact sum of decimal strings, keeping the largest scale of the inputs (`["100.50", "0.50"]` → `"101.00"`). */
export function sumAmounts(amounts: readonly string[]): string {
  const acc = new Acc();
  for (const a of amounts) acc.add(a);
  return acc.value();
}

/** One currency's total: `total` a decimal string, `count` the number of rows summed. */
export interface CurrencyTotal {
  currency: string;
  total: string;
  count: number;
}

/**
 * Sums `amount(row)` per `currency(row)`; currencies sorted by code.
 * @throws decimal.js `DecimalError` when an amount is not a decimal string
 */
export function totalsByCurrency<T>(
  rows: Iterable<T>,
  currency: (row: T) => string,
  amount: (row: T) => string,
): CurrencyTotal[] {
  const acc = new Map<string, Acc>();
  for (const row of rows) {
    const c = currency(row);
    let a = acc.get(c);
    if (!a) {
      a = new Acc();
      acc.set(c, a);
    }
    a.add(amount(row));
  }
  return [...acc]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([c, a]) => ({ currency: c, total: a.value(), count: a.count }));
}

/** Credits, debits (positive) and net of transactions in one currency. */
export interface FlowTotal {
  currency: string;
  inflow: string;
  outflow: string;
  net: string;
  count: number;
}

/**
 * Inflow (credits), outflow (debits, as a positive amount) and net per
 * currency for rows whose `amount` is absolute and `direction` gives the
 * sign (docs/treasury-api.md#conventions; the cashflow report's daily rows use the same rule).
 */
export function flowTotalsByCurrency<T extends { amount: string; currency: string; direction: "credit" | "debit" }>(
  rows: Iterable<T>,
): FlowTotal[] {
  const acc = new Map<string, { inflow: Acc; outflow: Acc }>();
  for (const r of rows) {
    let a = acc.get(r.currency);
    if (!a) {
      a = { inflow: new Acc(), outflow: new Acc() };
      acc.set(r.currency, a);
    }
    const abs = new Decimal(r.amount).abs().toFixed(scale(r.amount));
    (r.direction === "credit" ? a.inflow : a.outflow).add(abs);
  }
  return [...acc]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, a]) => {
      const dp = Math.max(a.inflow.dp, a.outflow.dp);
      return {
        currency,
        inflow: a.inflow.sum.toFixed(dp),
        outflow: a.outflow.sum.toFixed(dp),
        net: a.inflow.sum.minus(a.outflow.sum).toFixed(dp),
        count: a.inflow.count + a.outflow.count,
      };
    });
}

/** Sums of the inflow / outflow / net columns of report rows, per currency (the totals row under a cashflow table). */
export function cashflowTotals(
  rows: Iterable<{ currency: string; inflow: string; outflow: string; net: string }>,
): FlowTotal[] {
  const acc = new Map<string, { inflow: Acc; outflow: Acc; net: Acc }>();
  for (const r of rows) {
    let a = acc.get(r.currency);
    if (!a) {
      a = { inflow: new Acc(), outflow: new Acc(), net: new Acc() };
      acc.set(r.currency, a);
    }
    a.inflow.add(r.inflow);
    a.outflow.add(r.outflow);
    a.net.add(r.net);
  }
  return [...acc]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, a]) => ({
      currency,
      inflow: a.inflow.value(),
      outflow: a.outflow.value(),
      net: a.net.value(),
      count: a.inflow.count,
    }));
}

/** A currency's latest value and its change against the previous date. */
export interface LatestWithChange {
  currency: string;
  date: string;
  balance: string;
  previousDate: string | null;
  previousBalance: string | null;
  /** balance − previousBalance, null without a previous date. */
  change: string | null;
}

/**
 * For daily position rows (`date` YYYY-MM-DD, `balance` decimal string), the
 * latest date per currency and the change against the date before it
 * (the overview's "today against yesterday"). Dates compare as strings,
 * which is their calendar order in `YYYY-MM-DD`; no time zone is involved.
 */
export function latestWithChange(
  rows: Iterable<{ date: string; currency: string; balance: string }>,
): LatestWithChange[] {
  const by = new Map<string, { date: string; balance: string }[]>();
  for (const r of rows) {
    const list = by.get(r.currency) ?? [];
    list.push({ date: r.date, balance: r.balance });
    by.set(r.currency, list);
  }
  const out: LatestWithChange[] = [];
  for (const [currency, list] of [...by].sort(([a], [b]) => a.localeCompare(b))) {
    list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    const last = list[list.length - 1];
    if (!last) continue;
    const prev = list.length > 1 ? list[list.length - 2] : undefined;
    const dp = Math.max(scale(last.balance), prev ? scale(prev.balance) : 0);
    out.push({
      currency,
      date: last.date,
      balance: last.balance,
      previousDate: prev?.date ?? null,
      previousBalance: prev?.balance ?? null,
      change: prev ? new Decimal(last.balance).minus(prev.balance).toFixed(dp) : null,
    });
  }
  return out;
}

/**
 * Each day's change against the reported day before it, for one currency's daily position rows (`date` YYYY-MM-DD,
 * `balance` decimal string, any order): date → change as a decimal string with the larger scale of the two
 * balances, exact (decimal.js); the earliest date has none (absent from the map). A gap (a weekend, a missing
 * statement) compares with the last reported day, as the overview's "today against yesterday" does.
 */
export function dailyChanges(rows: Iterable<{ date: string; balance: string }>): Map<string, string> {
  const list = [...rows].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const out = new Map<string, string>();
  for (let i = 1; i < list.length; i++) {
    const [prev, cur] = [list[i - 1], list[i]];
    if (!prev || !cur) continue;
    const dp = Math.max(scale(cur.balance), scale(prev.balance));
    out.set(cur.date, new Decimal(cur.balance).minus(prev.balance).toFixed(dp));
  }
  return out;
}
