/**
 * Turns report rows and intraday points into chart series.
 *
 * Charts need numbers to place marks; those are derived here with
 * `Number()` of the decimal string and used for geometry only. Every series
 * row keeps the exact decimal string next to the number, and tooltips and
 * tables show the string — so no figure a person reads has passed through a
 * float.
 */
import type { CashflowDay, ForecastEntry, IntradayBalancePoint, PositionDay } from "@treasury/contract";
import { addDaysIso } from "@/lib/dates";
import { businessDateToUtcMs } from "@/lib/format-date";

/** Geometry only: a decimal string as a JS number for plotting. */
export function plotValue(amount: string): number {
  return Number(amount);
}

/** Groups rows by `currency`, currencies in code order; row order kept. */
export function groupByCurrency<T extends { currency: string }>(rows: readonly T[]): [string, T[]][] {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const list = m.get(r.currency);
    if (list) list.push(r);
    else m.set(r.currency, [r]);
  }
  return [...m].sort(([a], [b]) => a.localeCompare(b));
}

const byDate = <T extends { date: string }>(a: T, b: T) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);

/** One intraday point for the chart: `t` epoch ms, `y` plot value, `balance` the exact string. */
export interface IntradayDatum {
  t: number;
  y: number;
  balance: string;
  timestamp: string;
  balance_type: string;
}

/** Intraday points sorted by time. Points with an unparseable timestamp are dropped. */
export function intradaySeries(points: readonly IntradayBalancePoint[]): IntradayDatum[] {
  const out: IntradayDatum[] = [];
  for (const p of points) {
    const t = Date.parse(p.timestamp);
    if (Number.isNaN(t)) continue;
    out.push({ t, y: plotValue(p.balance), balance: p.balance, timestamp: p.timestamp, balance_type: p.balance_type });
  }
  return out.sort((a, b) => a.t - b.t);
}

/** A cashflow bar group: `inflow` up, `outflow` drawn down (negated), `net` line; exact strings kept. */
export interface CashflowDatum {
  date: string;
  t: number;
  inflow: number;
  outflow: number;
  net: number;
  row: CashflowDay;
}

const MAX_CASHFLOW_DAYS = 3700;

/**
 * Cashflow days of one currency, sorted by date, with every calendar day between the first and the last present:
 * a day without flows becomes a zero row (`0.00` in, out and net) so the time axis is to scale. Outflow is plotted
 * below zero so bars read as in / out. Rows with a repeated date keep the first.
 */
export function cashflowSeries(rows: readonly CashflowDay[]): CashflowDatum[] {
  const sorted = [...rows].sort(byDate);
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  if (!first || !last) return [];
  const byDay = new Map<string, CashflowDay>();
  for (const r of sorted) if (!byDay.has(r.date)) byDay.set(r.date, r);
  const out: CashflowDatum[] = [];
  // Reports span at most a few years; the cap only guards the loop against a malformed range.
  for (let date = first.date; date <= last.date && out.length < MAX_CASHFLOW_DAYS; date = addDaysIso(date, 1)) {
    const r = byDay.get(date) ?? { date, currency: first.currency, inflow: "0.00", outflow: "0.00", net: "0.00" };
    out.push({
      date,
      t: businessDateToUtcMs(date),
      inflow: plotValue(r.inflow),
      outflow: -plotValue(r.outflow),
      net: plotValue(r.net),
      row: r,
    });
  }
  return out;
}

/** A position point of one currency. */
export interface PositionDatum {
  date: string;
  t: number;
  balance: number;
  row: PositionDay;
}

export function positionSeries(rows: readonly PositionDay[]): PositionDatum[] {
  return [...rows]
    .sort(byDate)
    .map((r) => ({ date: r.date, t: businessDateToUtcMs(r.date), balance: plotValue(r.balance), row: r }));
}

/** A row of the forecast chart: the actual position, the forecast, or both at the seam. */
export interface ForecastDatum {
  date: string;
  t: number;
  actual: number | null;
  forecast: number | null;
  actualAmount: string | null;
  forecastAmount: string | null;
}

/**
 * Actual positions followed by forecast entries of one currency. The
 * forecast line starts at the last actual point, so it visibly continues
 * the actual line; forecast entries on or before the last actual date are
 * not drawn (the actual figure wins).
 */
export function forecastSeries(positions: readonly PositionDay[], forecast: readonly ForecastEntry[]): ForecastDatum[] {
  const actual = [...positions].sort(byDate);
  const last = actual[actual.length - 1];
  const out: ForecastDatum[] = actual.map((p) => ({
    date: p.date,
    t: businessDateToUtcMs(p.date),
    actual: plotValue(p.balance),
    forecast: null,
    actualAmount: p.balance,
    forecastAmount: null,
  }));
  const tail = out[out.length - 1];
  if (tail && last) {
    tail.forecast = tail.actual;
    tail.forecastAmount = last.balance;
  }
  for (const f of [...forecast].sort(byDate)) {
    if (last && f.date <= last.date) continue;
    out.push({
      date: f.date,
      t: businessDateToUtcMs(f.date),
      actual: null,
      forecast: plotValue(f.amount),
      actualAmount: null,
      forecastAmount: f.amount,
    });
  }
  return out;
}
