/**
 * Forecast against actuals (docs/forecast.md#variance). Pure; no I/O.
 *
 * - `snapshotRows`: the weekly totals of one company's forecast per complete ISO week (Monday–Sunday) of the
 *   horizon, currency and category — what a snapshot keeps.
 * - `actualWeeks`: the same totals of the booked history (the forecast's own learning data) per complete past week.
 * - `variance`: each past week's forecast, taken from the latest snapshot made before the week began, against its
 *   actuals, in the reporting currency, with the difference, the percent and the WAPE of the window.
 *
 * Sums are exact (decimal strings in, decimal strings out; lib/forecast/fixed.ts and decimal.js).
 */
import Decimal from "decimal.js";
import { fromDay, toDay, weekday } from "./days";
import { fromMillionths, fromUnits, timesRate, toUnits } from "./fixed";
import { exactAsNumbers } from "./flow-units";
import { columnsOf, type HistoryColumns } from "./history-columns";
import type { FxRate } from "./scenario";
import type { Flow, HistoryTxn } from "./types";

/** One weekly total of a snapshot: ISO week starting `week_start` (a Monday), one currency and category. */
export interface SnapshotRow {
  week_start: string;
  currency: string;
  category: string;
  /** Signed decimal string. */
  amount: string;
}

/** One company's stored snapshot (lib/db/schema.ts `forecastSnapshots`). */
export interface Snapshot {
  iso_week: string;
  company: string;
  /** Last day of history the forecast saw. */
  as_of: string;
  /** Last day of the forecast horizon. */
  forecast_to: string;
  rows: SnapshotRow[];
}

/** One weekly total of the actuals of a company. */
export interface ActualRow extends SnapshotRow {
  company: string;
}

/** Monday (`YYYY-MM-DD`) of the ISO week of `date`. @throws on a malformed date. */
export function weekStart(date: string): string {
  const d = toDay(date);
  return fromDay(d - weekday(d));
}

/** ISO 8601 week label of `date`: `2026-W48` (the week-numbering year: 2026-12-31 may be `2027-W01`). */
export function isoWeek(date: string): string {
  const monday = toDay(weekStart(date));
  const thursday = fromDay(monday + 3);
  const year = Number(thursday.slice(0, 4));
  const jan4 = toDay(`${year}-01-04`);
  const week1 = jan4 - weekday(jan4);
  const n = Math.floor((monday - week1) / 7) + 1;
  return `${year}-W${String(n).padStart(2, "0")}`;
}

function sumByWeek<T extends { date: string; currency: string; category: string; amount: string }>(
  items: readonly T[],
  keep: (weekStartDay: number) => boolean,
  extra: (t: T) => string,
): Map<string, { week: number; extra: string; currency: string; category: string; units: bigint }> {
  const acc = new Map<string, { week: number; extra: string; currency: string; category: string; units: bigint }>();
  for (const t of items) {
    const d = toDay(t.date);
    const w = d - weekday(d);
    if (!keep(w)) continue;
    const x = extra(t);
    const k = `${w}|${x}|${t.currency}|${t.category}`;
    let e = acc.get(k);
    if (!e) acc.set(k, (e = { week: w, extra: x, currency: t.currency, category: t.category, units: 0n }));
    e.units += toUnits(t.amount);
  }
  return acc;
}

/**
 * `rows` sorted by week, company, currency and category: the order of the key `week|company|currency|category`
 * compared as strings (a week start is always 10 characters, so that is the week first, then the rest of the key).
 * An actuals table holds some 200,000 rows for 50 companies, so each row gets one number — the rank of its week, the
 * rank of its `company|currency|category` among the distinct ones, its index — and a typed array sorts those.
 */
function sortByKey<T extends SnapshotRow & { company?: string }>(rows: T[]): T[] {
  const n = rows.length;
  const series = rows.map((r) => `${r.company ?? ""}|${r.currency}|${r.category}`);
  const rank = (values: readonly string[]) => {
    const distinct = [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return new Map(distinct.map((v, i) => [v, i]));
  };
  const weekRank = rank(rows.map((r) => r.week_start));
  const seriesRank = rank(series);
  const s = seriesRank.size;
  // week × series × n + index < 2^53 for any table this holds (a year of weeks × 4,000 series × 200,000 rows ≈ 4e13).
  const order = new Float64Array(n);
  for (let i = 0; i < n; i++)
    order[i] =
      ((weekRank.get((rows[i] as T).week_start) ?? 0) * s + (seriesRank.get(series[i] as string) ?? 0)) * n + i;
  order.sort();
  const out = new Array<T>(n);
  for (let k = 0; k < n; k++) out[k] = rows[(order[k] ?? 0) % n] as T;
  return out;
}

/**
 * The weekly totals to keep of a forecast: flows summed per ISO week, currency and category, for the weeks that lie
 * wholly in the horizon (`asOf` + 1 … `to`); a partial first or last week is left out.
 * @param flows one company's forecast flows (lib/forecast/engine.ts `Forecast.flows`).
 * @throws on a malformed date or amount.
 */
export function snapshotRows(flows: readonly Flow[], asOf: string, to: string): SnapshotRow[] {
  const first = toDay(asOf) + 1;
  const last = toDay(to);
  const acc = sumByWeek(
    flows,
    (w) => w >= first && w + 6 <= last,
    () => "",
  );
  return sortByKey(
    [...acc.values()].map((e) => ({
      week_start: fromDay(e.week),
      currency: e.currency,
      category: e.category,
      amount: fromUnits(e.units),
    })),
  );
}

/** A week's sums of one series in `actualWeeks`: millionths as a number (`n`, `c` terms) and as a bigint (`b`). */
type ActualCell = { week: number; n: number; c: number; b: bigint };
/** One company × currency × category of `actualWeeks` (`t` its first transaction), its cells by weeks back. */
type ActualSeries = { t: HistoryTxn; weeks: (ActualCell | undefined)[] };

/**
 * The rows of `actualWeeks` from its series `all`, in the order of sortByKey (week, then
 * `company|currency|category` as a string) without a key string per row or a sort of the rows: the series are
 * ranked once by their key, and the rows are read week by week, oldest first, each week's series in rank order.
 * Amounts are the number sums when `exact`, else the bigint ones.
 */
function actualRowsOf(all: readonly ActualSeries[], exact: boolean): ActualRow[] {
  const keys = all.map((x) => `${x.t.company}|${x.t.currency}|${x.t.category}`);
  const ranked = all
    .map((_, i) => i)
    .sort((i, j) => ((keys[i] as string) < (keys[j] as string) ? -1 : 1))
    .map((i) => all[i] as ActualSeries);
  let oldest = -1;
  for (const x of all) if (x.weeks.length - 1 > oldest) oldest = x.weeks.length - 1;
  const out: ActualRow[] = [];
  for (let k = oldest; k >= 0; k--)
    for (const x of ranked) {
      const e = x.weeks[k];
      if (!e) continue;
      out.push({
        week_start: fromDay(e.week),
        company: x.t.company,
        currency: x.t.currency,
        category: x.t.category,
        amount: exact ? fromMillionths(e.n) : fromUnits(e.b),
      });
    }
  return out;
}

/**
 * The booked history summed per company, ISO week, currency and category, for the weeks that ended before `asOf`
 * (the history runs through `asOf`, whose bookings may still be arriving). Runs on every recompute over a year of
 * every company's bookings, so it sums millionths as numbers while that is exact (lib/forecast/flow-units.ts
 * `exactAsNumbers`) and as bigints otherwise.
 * @throws on a malformed date or an amount with more than 6 decimals.
 */
export function actualWeeks(
  history: readonly HistoryTxn[],
  asOf: string,
  /** `historyColumns(history)` when the caller has read them (shared with the engine); else read here. */
  columns?: HistoryColumns,
): ActualRow[] {
  const end = toDay(asOf);
  // The Monday of the last week that ended before `asOf`: a transaction's week is counted back from it, k weeks
  // before (no weekday per transaction); a day after its Sunday is in a week still running, left out.
  const top = end - 7 - weekday(end - 7);
  const byCompany = new Map<string, Map<string, Map<string, ActualSeries>>>();
  const all: ActualSeries[] = [];
  let last: ActualSeries | undefined;
  let max = 0;
  let maxCount = 0;
  // Dates and amounts parsed once per recompute (lib/forecast/history-columns.ts; the engine reads the same columns).
  const hc = columnsOf(history, columns);
  const seriesOf = (t: HistoryTxn): ActualSeries => {
    let byCurrency = byCompany.get(t.company);
    if (!byCurrency) byCompany.set(t.company, (byCurrency = new Map()));
    let byCategory = byCurrency.get(t.currency);
    if (!byCategory) byCurrency.set(t.currency, (byCategory = new Map()));
    let s = byCategory.get(t.category);
    if (!s) {
      byCategory.set(t.category, (s = { t, weeks: [] }));
      all.push(s);
    }
    return s;
  };
  for (let i = 0; i < history.length; i++) {
    const d = hc.day[i] ?? 0;
    if (d > top + 6) continue;
    const t = history[i] as HistoryTxn;
    let s = last;
    if (!s || s.t.category !== t.category || s.t.company !== t.company || s.t.currency !== t.currency)
      last = s = seriesOf(t);
    const k = Math.floor((top + 6 - d) / 7);
    let cell = s.weeks[k];
    if (!cell) {
      s.weeks[k] = cell = { week: top - 7 * k, n: 0, c: 0, b: 0n };
    }
    const v = hc.units[i] ?? NaN;
    if (Number.isNaN(v)) throw new Error(`not a decimal string with at most 6 decimals: ${t.amount}`);
    // ±Infinity past 2^51 millionths: then max is Infinity and the sums below are bigints.
    const a = Math.abs(v);
    if (a > max) max = a;
    cell.n += v;
    if (++cell.c > maxCount) maxCount = cell.c;
  }
  const exact = exactAsNumbers(maxCount, max);
  if (!exact) {
    // Too large for exact double sums: the same sums as bigints.
    for (let i = 0; i < history.length; i++) {
      const d = hc.day[i] ?? 0;
      if (d > top + 6) continue;
      const t = history[i] as HistoryTxn;
      const cell = seriesOf(t).weeks[Math.floor((top + 6 - d) / 7)];
      if (cell) cell.b += toUnits(t.amount);
    }
  }
  return actualRowsOf(all, exact);
}

/** Forecast against actual of one cell (a week, a category, or both), in the reporting currency. */
export interface VarianceFigures {
  /** Decimal strings with 2 decimals. */
  forecast: string;
  actual: string;
  /** `actual − forecast`: positive when more cash came in (or less went out) than forecast. */
  difference: string;
  /** `difference / |actual| × 100`, 1 decimal; null when the actual is 0. */
  percent: string | null;
}

/** One past week of the variance table. */
export interface VarianceWeek extends VarianceFigures {
  week_start: string;
  week_end: string;
  iso_week: string;
  /** The earliest `as_of` of the snapshots compared (the forecast as it stood then). */
  snapshot_as_of: string;
  /** The same figures per category (the drill-down). */
  categories: (VarianceFigures & { category: string })[];
}

/** The variance over a window of past weeks. */
export interface Variance {
  reporting_currency: string;
  /** Monday of the first week of the window and Sunday of the last. */
  from: string;
  to: string;
  /** The weeks with a snapshot to compare, oldest first (weeks without one are left out). */
  weeks: VarianceWeek[];
  /** Σ |actual − forecast| / Σ |actual| × 100 over every week × category cell compared, 1 decimal; null when Σ |actual| = 0 or nothing was compared. */
  wape: string | null;
  /** Per category over the window, with its own WAPE. */
  by_category: (VarianceFigures & { category: string; wape: string | null })[];
  /** Currencies left out for want of a rate to the reporting currency. */
  missing_rates: string[];
  /** The category the figures are restricted to, or null. */
  category: string | null;
  /** When the first comparison appears (a Monday), while `weeks` is empty; else null. */
  first_comparison: string | null;
}

/** Input of `variance`. */
export interface VarianceInput {
  /** Today: the window is the `weeks` complete ISO weeks before the week of `asOf`. */
  asOf: string;
  weeks: number;
  snapshots: readonly Snapshot[];
  actuals: readonly ActualRow[];
  /** The companies to compare (others' snapshots and actuals are ignored). */
  companies: readonly string[];
  reporting: string;
  /** Rate of each currency to `reporting` (the reporting currency itself needs none). */
  fx: Readonly<Record<string, FxRate>>;
  /** Restrict to one category. */
  category?: string | null;
}

const dec2 = (d: Decimal) => {
  const s = d.toFixed(2, Decimal.ROUND_HALF_UP);
  return s === "-0.00" ? "0.00" : s;
};

/** Percent of `part` over `whole` (1 decimal), null when `whole` is 0. */
function pct(part: Decimal, whole: Decimal): string | null {
  if (whole.isZero()) return null;
  const s = part.div(whole).times(100).toFixed(1, Decimal.ROUND_HALF_UP);
  return s === "-0.0" ? "0.0" : s;
}

/** The figures of a forecast and an actual: difference and percent (docs/forecast.md#variance). */
export function figures(forecast: Decimal, actual: Decimal): VarianceFigures {
  const difference = actual.minus(forecast);
  return {
    forecast: dec2(forecast),
    actual: dec2(actual),
    difference: dec2(difference),
    percent: pct(difference, actual.abs()),
  };
}

/** WAPE in percent (1 decimal) of cells: Σ |actual − forecast| / Σ |actual|; null when Σ |actual| = 0 or no cell. */
export function wape(cells: readonly { forecast: Decimal; actual: Decimal }[]): string | null {
  let err = new Decimal(0);
  let tot = new Decimal(0);
  for (const c of cells) {
    err = err.plus(c.actual.minus(c.forecast).abs());
    tot = tot.plus(c.actual.abs());
  }
  return pct(err, tot);
}

/** A forecast and actual sum in the reporting currency. */
type VarianceCell = { forecast: Decimal; actual: Decimal };

/**
 * Per company, the latest of `snaps` made before the week starting on day `w` whose horizon covers all of it
 * (docs/forecast.md#variance).
 */
function snapshotsForWeek(snaps: readonly Snapshot[], w: number): Map<string, Snapshot> {
  const chosen = new Map<string, Snapshot>();
  for (const s of snaps) {
    if (toDay(s.as_of) >= w || toDay(s.forecast_to) < w + 6) continue;
    const had = chosen.get(s.company);
    if (!had || s.as_of > had.as_of) chosen.set(s.company, s);
  }
  return chosen;
}

/**
 * The forecast (from the `chosen` snapshots' rows) and actual (from `actuals` of the chosen companies) of the week
 * starting `ws`, per category (only `only` when not null), converted by `toReporting` (null: no rate, left out).
 */
function weekCells(
  chosen: ReadonlyMap<string, Snapshot>,
  actuals: readonly ActualRow[],
  ws: string,
  only: string | null,
  toReporting: (currency: string, amount: string) => Decimal | null,
): Map<string, VarianceCell> {
  const cells = new Map<string, VarianceCell>();
  const cell = (category: string) => {
    let c = cells.get(category);
    if (!c) cells.set(category, (c = { forecast: new Decimal(0), actual: new Decimal(0) }));
    return c;
  };
  for (const s of chosen.values())
    for (const r of s.rows) {
      if (r.week_start !== ws || (only !== null && r.category !== only)) continue;
      const v = toReporting(r.currency, r.amount);
      if (v) cell(r.category).forecast = cell(r.category).forecast.plus(v);
    }
  for (const a of actuals) {
    if (a.week_start !== ws || !chosen.has(a.company) || (only !== null && a.category !== only)) continue;
    const v = toReporting(a.currency, a.amount);
    if (v) cell(a.category).actual = cell(a.category).actual.plus(v);
  }
  return cells;
}

/**
 * When the first comparison appears (a Monday, `YYYY-MM-DD`) while no week of the window has one: the first week
 * a snapshot covers wholly becomes comparable the Monday after it ends; with no snapshot yet, the first one is
 * taken this week (starting day `thisWeek`) and covers next week at the earliest.
 */
function firstComparisonOf(snaps: readonly Snapshot[], thisWeek: number): string {
  const covered = snaps
    .map((s) => {
      const d = toDay(s.as_of) + 1;
      const monday = d - weekday(d) + (weekday(d) === 0 ? 0 : 7);
      return monday + 6 <= toDay(s.forecast_to) ? monday : null;
    })
    .filter((x): x is number => x !== null && x + 7 > thisWeek)
    .sort((x, y) => x - y);
  return fromDay((covered[0] ?? thisWeek + 7) + 7);
}

/**
 * Each complete week of the window against the forecast made before it began: per company, the latest snapshot whose
 * `as_of` is before the week's Monday and whose horizon covers the whole week; a company without one is left out of
 * that week (its actuals too), a week no company covers is left out. Amounts are converted to `reporting` at the
 * rates in `fx`; a currency without a rate is left out and named in `missing_rates`.
 * Implements docs/forecast.md#variance.
 * @throws RangeError when `weeks` is not an integer in 1–26.
 */
export function variance(input: VarianceInput): Variance {
  const { weeks, reporting, fx } = input;
  if (!Number.isInteger(weeks) || weeks < 1 || weeks > 26) throw new RangeError("weeks must be 1–26");
  const thisWeek = toDay(weekStart(input.asOf));
  const firstWeek = thisWeek - weeks * 7;
  const visible = new Set(input.companies);
  const only = input.category ?? null;
  const missing = new Set<string>();
  const toReporting = (currency: string, amount: string): Decimal | null => {
    const rate = currency === reporting ? "1" : fx[currency]?.rate;
    if (!rate) {
      missing.add(currency);
      return null;
    }
    return new Decimal(fromUnits(timesRate(toUnits(amount), rate)));
  };
  const snaps = input.snapshots.filter((s) => visible.has(s.company));
  const out: VarianceWeek[] = [];
  // category → cells over the window
  const catCells = new Map<string, VarianceCell[]>();
  const allCells: VarianceCell[] = [];
  for (let w = firstWeek; w < thisWeek; w += 7) {
    const ws = fromDay(w);
    // Per company: the latest snapshot made before the week that covers all of it.
    const chosen = snapshotsForWeek(snaps, w);
    if (chosen.size === 0) continue;
    const cells = weekCells(chosen, input.actuals, ws, only, toReporting);
    let f = new Decimal(0);
    let a = new Decimal(0);
    const categories = [...cells.entries()]
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
      .map(([category, c]) => {
        f = f.plus(c.forecast);
        a = a.plus(c.actual);
        allCells.push(c);
        let list = catCells.get(category);
        if (!list) catCells.set(category, (list = []));
        list.push(c);
        return { category, ...figures(c.forecast, c.actual) };
      });
    out.push({
      week_start: ws,
      week_end: fromDay(w + 6),
      iso_week: isoWeek(ws),
      snapshot_as_of: [...chosen.values()].map((s) => s.as_of).sort()[0] ?? "",
      ...figures(f, a),
      categories,
    });
  }
  const byCategory = [...catCells.entries()]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([category, cells]) => {
      const f = cells.reduce((s, c) => s.plus(c.forecast), new Decimal(0));
      const a = cells.reduce((s, c) => s.plus(c.actual), new Decimal(0));
      return { category, ...figures(f, a), wape: wape(cells) };
    });
  const firstComparison = out.length === 0 ? firstComparisonOf(snaps, thisWeek) : null;
  return {
    reporting_currency: reporting,
    from: fromDay(firstWeek),
    to: fromDay(thisWeek - 1),
    weeks: out,
    wape: wape(allCells),
    by_category: byCategory,
    missing_rates: [...missing].sort(),
    category: only,
    first_comparison: firstComparison,
  };
}
