/**
 * Recurring payees detected from the history (docs/forecast.md#recurring-payees): the same company, currency,
 * counterparty and direction, at a regular interval (weekly, monthly or quarterly) and amount (every amount
 * within 5 % of the median). Monthly and quarterly flows keep a day of month; an occurrence moved by a weekend
 * or holiday (up to 4 days) still counts, and the direction it moved (earlier or later) is kept for the
 * projection. A pattern whose next occurrence is more than a week overdue is considered ended.
 */
import Decimal from "decimal.js";
import { dayOf, fromDay, isWeekend, toDay, weekday, ymd } from "./days";
import type { Flow, HistoryTxn } from "./types";

/** How often a detected payee recurs. */
export type Cadence = "weekly" | "monthly" | "quarterly";

/** A detected recurring payee. */
export interface RecurringPattern {
  /** Stable id: `company|currency|counterparty|direction|cadence` (the key a switch-off is stored under). */
  id: string;
  company: string;
  currency: string;
  counterparty: string;
  category: string;
  cadence: Cadence;
  /** The latest occurrence's signed amount (decimal string): the amount projected. */
  amount: string;
  /** Day of month (monthly, quarterly) or weekday 0 = Monday (weekly). */
  anchor: number;
  /** Where a date that falls on a weekend moves: earlier (`preceding`) or later (`following`). */
  roll: "preceding" | "following";
  occurrences: number;
  last_date: string;
  /** First projected date after `asOf`. */
  next_date: string;
}

/** Detection settings. */
export interface DetectOptions {
  /** Relative amount tolerance around the median (default 0.05). */
  amountTolerance?: number;
  /** Days an occurrence may sit from its nominal date (default 4). */
  dayTolerance?: number;
}

interface Occ {
  day: number;
  amount: Decimal;
  category: string;
  index: number;
}

function roll(day: number, how: "preceding" | "following"): number {
  let d = day;
  while (isWeekend(d)) d += how === "preceding" ? -1 : 1;
  return d;
}

function mode(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = values[0] ?? 0;
  let n = 0;
  for (const [v, c] of counts) if (c > n || (c === n && v > best)) [best, n] = [v, c];
  return best;
}

function detectGroup(
  occ: Occ[],
  cadence: Cadence,
  tol: number,
): { anchor: number; roll: "preceding" | "following" } | null {
  if (cadence === "weekly") {
    if (occ.length < 4) return null;
    for (let i = 1; i < occ.length; i++) {
      const gap = (occ[i]?.day ?? 0) - (occ[i - 1]?.day ?? 0);
      if (gap < 6 || gap > 8) return null;
    }
    return { anchor: mode(occ.map((o) => weekday(o.day))), roll: "following" };
  }
  const step = cadence === "monthly" ? 1 : 3;
  if (occ.length < 3) return null;
  // The anchor is the most common day of month among the occurrences on a working day (a moved one is not).
  const working = occ.filter((o) => !isWeekend(o.day));
  const anchor = mode((working.length ? working : occ).map((o) => ymd(o.day).d));
  let earlier = 0;
  let later = 0;
  let prevMonth: number | null = null;
  for (const o of occ) {
    // The nominal date is the anchor day nearest the occurrence: a 1st moved back lands in the month before.
    const { y, m } = ymd(o.day);
    let best = Infinity;
    let month = 0;
    for (const dm of [-1, 0, 1]) {
      const diff = o.day - dayOf(y, m + dm, anchor);
      if (Math.abs(diff) < Math.abs(best)) [best, month] = [diff, y * 12 + m - 1 + dm];
    }
    if (Math.abs(best) > tol) return null;
    if (prevMonth !== null && month - prevMonth !== step) return null;
    prevMonth = month;
    if (best < 0) earlier++;
    if (best > 0) later++;
  }
  return { anchor, roll: later > earlier ? "following" : "preceding" };
}

/**
 * Finds the recurring payees in `history` and the transactions behind them.
 * @param asOf last day of the history (`YYYY-MM-DD`); patterns overdue by more than 7 days on it are dropped.
 * @returns the patterns (sorted by id) and the indices of `history` they explain (left out of the remainder).
 */
export function detectRecurring(
  history: readonly HistoryTxn[],
  asOf: string,
  opts: DetectOptions = {},
): { patterns: RecurringPattern[]; matched: Set<number> } {
  const amountTol = new Decimal(opts.amountTolerance ?? 0.05);
  const dayTol = opts.dayTolerance ?? 4;
  const asOfDay = toDay(asOf);
  const groups = new Map<string, Occ[]>();
  history.forEach((t, index) => {
    const cp = t.counterparty?.trim().toLowerCase();
    if (!cp) return;
    const amount = new Decimal(t.amount);
    if (amount.isZero()) return;
    const key = [t.company, t.currency, cp, amount.isNegative() ? "debit" : "credit"].join("|");
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push({ day: toDay(t.date), amount, category: t.category, index });
  });
  const patterns: RecurringPattern[] = [];
  const matched = new Set<number>();
  for (const [key, occ] of groups) {
    occ.sort((a, b) => a.day - b.day || a.index - b.index);
    const sorted = [...occ].map((o) => o.amount).sort((a, b) => a.comparedTo(b));
    const median = sorted[Math.floor(sorted.length / 2)] ?? new Decimal(0);
    if (occ.some((o) => o.amount.minus(median).abs().greaterThan(median.abs().times(amountTol)))) continue;
    for (const cadence of ["weekly", "monthly", "quarterly"] as const) {
      const found = detectGroup(occ, cadence, dayTol);
      if (!found) continue;
      const last = occ[occ.length - 1];
      if (!last) break;
      const next = (after: number) => nextOccurrence({ cadence, ...found }, after);
      let nd = next(last.day);
      if (nd < asOfDay - 7) break;
      while (nd <= asOfDay) nd = next(nd);
      const [company, currency, counterparty] = key.split("|") as [string, string, string];
      patterns.push({
        id: `${key}|${cadence}`,
        company,
        currency,
        counterparty,
        category: last.category,
        cadence,
        amount: last.amount.toFixed(),
        anchor: found.anchor,
        roll: found.roll,
        occurrences: occ.length,
        last_date: fromDay(last.day),
        next_date: fromDay(nd),
      });
      for (const o of occ) matched.add(o.index);
      break;
    }
  }
  patterns.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { patterns, matched };
}

/**
 * The occurrence after day `after`: a week later, or the anchor day of the next month (quarter) off a weekend.
 * A date rolled back into the month before (the 1st paid on the 31st) is still followed by the next month's.
 */
export function nextOccurrence(p: Pick<RecurringPattern, "cadence" | "anchor" | "roll">, after: number): number {
  if (p.cadence === "weekly") return after + 7;
  const step = p.cadence === "monthly" ? 1 : 3;
  const { y, m } = ymd(after);
  let k = 1;
  let d = roll(dayOf(y, m + step * k, p.anchor), p.roll);
  while (d <= after) d = roll(dayOf(y, m + step * ++k, p.anchor), p.roll);
  return d;
}

/**
 * The dates a pattern falls on in `[from, to]` (day numbers), starting from its `next_date`.
 */
export function projectRecurring(p: RecurringPattern, from: number, to: number): Flow[] {
  const out: Flow[] = [];
  for (let d = toDay(p.next_date); d <= to; d = nextOccurrence(p, d))
    if (d >= from)
      out.push({
        date: fromDay(d),
        company: p.company,
        currency: p.currency,
        category: p.category,
        amount: p.amount,
        p10: p.amount,
        p90: p.amount,
        source: "recurring",
        ref: p.id,
        label: p.counterparty,
      });
  return out;
}
