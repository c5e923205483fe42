/**
 * The forecast engine (docs/forecast.md): known flows first (approved and pending batches on their execution
 * dates, manual lines, recurring payees detected from the history and not switched off), then a statistical
 * remainder per company × currency × category series from the model the backtest chose for it, with a P10/P90
 * band from that model's backtest errors. Output is daily flows; `bucket` sums them by day or by week.
 */
import { backtest, quantileOfSorted, type BacktestResult } from "./backtest";
import { fromDay, toDay } from "./days";
import { fromMillionths, fromUnits, rateUnits, timesRateUnits } from "./fixed";
import {
  centsMillionths,
  exactAsNumbers,
  flowBigUnits,
  flowColumns,
  flowMillionths,
  SeriesIndex,
  sortWithColumns,
  type SeriesRef,
} from "./flow-units";
import { columnsOf, type HistoryColumns } from "./history-columns";
import { expandManualLine } from "./manual";
import { BASELINE, runModel, type HwFitMemo, type ModelName } from "./models";
import { detectRecurring, projectRecurring, type RecurringPattern } from "./recurring";
import type { FxRate } from "./scenario";
import type { GroupBucket } from "./sources";
import type { Flow, HistoryTxn, KnownBatch, ManualLine } from "./types";

/** Most weeks ahead. */
export const MAX_WEEKS = 26;

/** Inputs of `buildForecast`. */
export interface ForecastInput {
  /** Last day of the history (`YYYY-MM-DD`); the forecast starts the day after. */
  asOf: string;
  /** Weeks ahead, 1–26. */
  weeks: number;
  history: readonly HistoryTxn[];
  batches?: readonly KnownBatch[];
  manualLines?: readonly ManualLine[];
  /** Ids of recurring patterns switched off. */
  disabledRecurring?: ReadonlySet<string>;
  /** Cached backtests by series key (`company|currency|category`); missing ones are computed. */
  backtests?: ReadonlyMap<string, BacktestResult>;
  /** Days of history the models see (default 728). */
  historyDays?: number;
  /** `historyColumns(history)` when the caller has read them (to share with `actualWeeks`); else read here. */
  historyColumns?: HistoryColumns;
}

/** One statistical series and how it was modelled. */
export interface SeriesInfo {
  key: string;
  company: string;
  currency: string;
  category: string;
  model: ModelName;
  origins: number;
  /** WAPE of the chosen model in the backtest (0.14 = 14 %), null without enough history. */
  wape: number | null;
  /** WAPE of the seasonal-naive baseline. */
  baseline_wape: number | null;
  mase: number | null;
}

/** The forecast. */
export interface Forecast {
  from: string;
  to: string;
  weeks: number;
  flows: Flow[];
  recurring: (RecurringPattern & { enabled: boolean })[];
  series: SeriesInfo[];
  backtests: Map<string, BacktestResult>;
}

/** An estimate rounded to cents as a decimal string (never "-0.00"). */
function cents(x: number): string {
  const s = x.toFixed(2);
  return s === "-0.00" ? "0.00" : s;
}

/** z of the 90th percentile of a normal distribution. */
const Z90 = 1.2816;

/** `company|currency|category`. */
export function seriesKey(company: string, currency: string, category: string): string {
  return `${company}|${currency}|${category}`;
}

/** The P10/P90 offsets per horizon week of a backtest result, by the result (it is never changed once made). */
const bands = new WeakMap<BacktestResult, { los: number[]; his: number[] }>();

/**
 * The 10th and 90th percentiles of the chosen model's backtest errors per horizon week (`errs`, those of `bt`),
 * computed once per backtest result: a recompute with the cached model choice (docs/forecast.md#recomputing)
 * reuses them.
 */
function bandOf(bt: BacktestResult, errs: readonly (readonly number[])[]): { los: number[]; his: number[] } {
  let b = bands.get(bt);
  if (!b) {
    // A typed array sorts numbers natively, without a comparator call per comparison.
    const sorted = errs.map((e) => Float64Array.from(e).sort());
    b = { los: sorted.map((e) => quantileOfSorted(e, 0.1)), his: sorted.map((e) => quantileOfSorted(e, 0.9)) };
    bands.set(bt, b);
  }
  return b;
}

/** Holt-Winters' grid choice per series, with the window it was made on (lib/forecast/models.ts `HwFitMemo`). */
const hwFits: HwFitMemo["fits"] = new Map();

/** A statistical series: daily sums over the model window (`y[0]` is the window's first day). */
interface HistorySeries {
  company: string;
  currency: string;
  category: string;
  y: number[];
}

/**
 * The known flows of the forecast window `fromD`–`toD` (day numbers, lib/forecast/days.ts): the batches on their
 * execution dates, the manual lines expanded, and the recurring payees detected in the history and not switched
 * off (docs/forecast.md).
 * @returns the flows in that order, every recurring pattern, the disabled ids, and the indices of the history
 *   transactions the patterns matched (left out of the statistical remainder).
 * @throws Error on a malformed date of a batch or manual line.
 */
function knownFlows(
  input: ForecastInput,
  fromD: number,
  toD: number,
): { flows: Flow[]; patterns: RecurringPattern[]; matched: ReadonlySet<number>; disabled: ReadonlySet<string> } {
  const flows: Flow[] = [];
  for (const b of input.batches ?? []) {
    const d = toDay(b.execution_date);
    if (d < fromD || d > toD) continue;
    flows.push({
      date: b.execution_date,
      company: b.company,
      currency: b.currency,
      category: b.category,
      amount: b.amount,
      p10: b.amount,
      p90: b.amount,
      source: "batch",
      ref: b.id,
      label: b.label ?? `${b.status} batch`,
    });
  }
  const from = fromDay(fromD);
  const to = fromDay(toD);
  for (const line of input.manualLines ?? []) flows.push(...expandManualLine(line, from, to));
  const { patterns, matched } = detectRecurring(input.history, input.asOf);
  const disabled = input.disabledRecurring ?? new Set<string>();
  for (const p of patterns) if (!disabled.has(p.id)) flows.push(...projectRecurring(p, fromD, toD));
  return { flows, patterns, matched, disabled };
}

/**
 * The remainder's series: daily sums per company × currency × category over the `historyDays` days ending on
 * `asOfDay`, the transactions in `matched` (recurring payees) left out (docs/forecast.md).
 * @returns the series by `seriesKey`, in order of first appearance.
 */
function historySeries(
  input: ForecastInput,
  asOfDay: number,
  historyDays: number,
  matched: ReadonlySet<number>,
): Map<string, HistorySeries> {
  const start = asOfDay - historyDays + 1;
  const series = new Map<string, HistorySeries>();
  // company → currency → category: no key string per transaction; a run of one series' transactions (the usual
  // order of a read) skips even the lookups.
  const byCompany = new Map<string, Map<string, Map<string, HistorySeries>>>();
  let last: HistorySeries | undefined;
  const history = input.history;
  // Dates and amounts parsed once per recompute (lib/forecast/history-columns.ts; the variance's actuals read the
  // same columns). An amount in exact millionths / 10^6 is the double `Number(amount)` gives (both the nearest double to
  // the same decimal); an amount the columns do not hold exactly is read with `Number` as before.
  const hc = columnsOf(history, input.historyColumns);
  const matchedAny = matched.size > 0;
  for (let i = 0; i < history.length; i++) {
    if (matchedAny && matched.has(i)) continue;
    const d = hc.day[i] ?? 0;
    if (d < start || d > asOfDay) continue;
    const t = history[i] as HistoryTxn;
    let s = last;
    if (!s || s.category !== t.category || s.company !== t.company || s.currency !== t.currency) {
      let byCurrency = byCompany.get(t.company);
      if (!byCurrency) byCompany.set(t.company, (byCurrency = new Map()));
      let byCategory = byCurrency.get(t.currency);
      if (!byCategory) byCurrency.set(t.currency, (byCategory = new Map()));
      s = byCategory.get(t.category);
      if (!s) {
        s = {
          company: t.company,
          currency: t.currency,
          category: t.category,
          y: new Array<number>(historyDays).fill(0),
        };
        byCategory.set(t.category, s);
        series.set(seriesKey(t.company, t.currency, t.category), s);
      }
      last = s;
    }
    const u = hc.units[i] ?? NaN;
    s.y[d - start] = (s.y[d - start] ?? 0) + (Number.isFinite(u) ? u / 1e6 : Number(t.amount));
  }
  return series;
}

/** The flows' typed columns (lib/forecast/flow-units.ts) being filled: `n` rows used of the arrays' length. */
interface FlowColumnBuffer {
  day: Int32Array;
  an: Float64Array;
  lon: Float64Array;
  hin: Float64Array;
  sid: Int32Array;
  n: number;
}

/**
 * Column buffers with room for `cap` flows, the `known` ones (day number, [amount, P10, P90] in millionths,
 * series id) written first.
 */
function flowColumnBuffer(
  cap: number,
  known: readonly { day: number; units: readonly [number, number, number]; sid: number }[],
): FlowColumnBuffer {
  const c: FlowColumnBuffer = {
    day: new Int32Array(cap),
    an: new Float64Array(cap),
    lon: new Float64Array(cap),
    hin: new Float64Array(cap),
    sid: new Int32Array(cap),
    n: 0,
  };
  for (const k of known) {
    c.day[c.n] = k.day;
    [c.an[c.n], c.lon[c.n], c.hin[c.n]] = k.units;
    c.sid[c.n] = k.sid;
    c.n++;
  }
  return c;
}

/**
 * The standard deviation of a week's sum estimated from the week-to-week differences of the daily history `y`
 * (whole weeks counted back from its last day): the normal band's spread when the backtest has too few origins.
 * 0 with fewer than two weeks.
 */
function weeklySpread(y: readonly number[]): number {
  const wk: number[] = [];
  for (let i = y.length % 7; i + 7 <= y.length; i += 7) wk.push(y.slice(i, i + 7).reduce((a, b) => a + b, 0));
  let v = 0;
  for (let i = 1; i < wk.length; i++) v += ((wk[i] ?? 0) - (wk[i - 1] ?? 0)) ** 2;
  return wk.length > 1 ? Math.sqrt(v / (2 * (wk.length - 1))) : 0;
}

/**
 * The daily statistical flows of one series over the `h` days from `fromD` (`dates` their `YYYY-MM-DD`): the
 * point estimate of `model` (`point`) with the P10/P90 band of the backtest's errors, or a normal band from the
 * history's weekly spread when the backtest has fewer than 4 origins (docs/forecast.md). Days whose estimate and
 * band are all zero are skipped. Each flow is pushed to `flows` and its columns to `cols` (series id `k`).
 * @throws Error when an estimate is not finite (the flow's figures cannot be parsed).
 */
function pushStatisticalFlows(
  s: HistorySeries,
  y: readonly number[],
  bt: BacktestResult,
  point: readonly number[],
  at: { fromD: number; h: number; dates: readonly string[]; k: number },
  flows: Flow[],
  cols: FlowColumnBuffer,
): void {
  const { fromD, h, dates, k } = at;
  const model = bt.chosen;
  const errs = bt.models[model]?.errors;
  // Too few origins for an empirical band: a normal band from the week-to-week spread of the history.
  const bandSd = !errs || bt.origins < 4 ? weeklySpread(y) : 0;
  const empirical = errs !== undefined && bt.origins >= 4;
  const { los, his } = empirical ? bandOf(bt, errs) : { los: [], his: [] };
  for (let i = 0; i < h; i++) {
    const w = Math.min(Math.floor(i / 7), los.length - 1);
    const lo = empirical ? (los[w] ?? 0) : -Z90 * bandSd;
    const hi = empirical ? (his[w] ?? 0) : Z90 * bandSd;
    const p = point[i] ?? 0;
    if (Math.abs(p) < 0.005 && lo === 0 && hi === 0) continue;
    // The band is per week; each day carries a seventh of it so a week's days add up to the week's band.
    // An estimate: computed in floating point and rounded to cents here, once.
    const pLo = p + lo / 7;
    const pHi = p + hi / 7;
    const f: Flow = {
      date: dates[i] ?? fromDay(fromD + i),
      company: s.company,
      currency: s.currency,
      category: s.category,
      amount: cents(p),
      p10: cents(pLo),
      p90: cents(pHi),
      source: "statistical",
      ref: model,
    };
    flows.push(f);
    const n = cols.n;
    cols.day[n] = fromD + i;
    cols.sid[n] = k;
    if (Math.abs(p) < 1e9 && Math.abs(pLo) < 1e9 && Math.abs(pHi) < 1e9) {
      cols.an[n] = centsMillionths(f.amount);
      cols.lon[n] = centsMillionths(f.p10);
      cols.hin[n] = centsMillionths(f.p90);
    } else {
      // Not a finite estimate below 1e9: parsed and checked like any flow (the bigint path, or an error).
      const [a, l, u] = flowMillionths(f);
      cols.an[n] = a;
      cols.lon[n] = l;
      cols.hin[n] = u;
    }
    cols.n = n + 1;
  }
}

/** The `SeriesInfo` row of series `key` modelled by `bt`'s chosen model. */
function seriesInfo(key: string, s: HistorySeries, bt: BacktestResult): SeriesInfo {
  const chosen = bt.models[bt.chosen];
  return {
    key,
    company: s.company,
    currency: s.currency,
    category: s.category,
    model: bt.chosen,
    origins: bt.origins,
    wape: chosen?.wape ?? null,
    baseline_wape: bt.models[BASELINE]?.wape ?? null,
    mase: chosen?.mase ?? null,
  };
}

/**
 * Builds the forecast for `weeks` weeks after `asOf` (docs/forecast.md): the known flows, then per history series
 * its backtest (cached in `input.backtests` or computed), the chosen model's daily estimates and band.
 * @returns flows sorted by date (lib/forecast/flow-units.ts `sortWithColumns`), the recurring patterns with their
 *   switch, the series' model rows sorted by key, and the backtests used by series key.
 * @throws RangeError when `weeks` is not an integer in 1–26; Error on a malformed date.
 */
export function buildForecast(input: ForecastInput): Forecast {
  const { weeks } = input;
  if (!Number.isInteger(weeks) || weeks < 1 || weeks > MAX_WEEKS) throw new RangeError("weeks must be 1–26");
  const asOfDay = toDay(input.asOf);
  const fromD = asOfDay + 1;
  const toD = asOfDay + weeks * 7;
  const { flows, patterns, matched, disabled } = knownFlows(input, fromD, toD);
  // The flows' columns (lib/forecast/flow-units.ts), index for index, built as the flows are made so the date sort
  // and every read take them without parsing the flows again: the known flows' figures parsed here, the
  // statistical ones taken from the estimates below.
  const index = new SeriesIndex();
  const known = flows.map((f) => ({
    day: toDay(f.date),
    units: flowMillionths(f),
    sid: index.of(f.company, f.currency, f.category),
  }));

  // The remainder: daily sums per series over the model window, recurring payees left out.
  const historyDays = input.historyDays ?? 728;
  const start = asOfDay - historyDays + 1;
  const series = historySeries(input, asOfDay, historyDays, matched);

  const infos: SeriesInfo[] = [];
  const backtests = new Map<string, BacktestResult>();
  const h = weeks * 7;
  const dates = Array.from({ length: h }, (_, i) => fromDay(fromD + i));
  // Typed columns with room for every flow: the known ones, then at most `h` per series.
  const cols = flowColumnBuffer(known.length + series.size * h, known);
  for (const [key, s] of series) {
    // Trim the leading days before the series' first flow: a new category is not a year of zeros.
    let first = 0;
    while (first < s.y.length && s.y[first] === 0) first++;
    const y = s.y.slice(first);
    if (y.length === 0) continue;
    const bt = input.backtests?.get(key) ?? backtest(y, start + first);
    backtests.set(key, bt);
    const point = runModel(bt.chosen, y, h, start + first, { fits: hwFits, key });
    const k = index.of(s.company, s.currency, s.category);
    pushStatisticalFlows(s, y, bt, point, { fromD, h, dates, k }, flows, cols);
    infos.push(seriesInfo(key, s, bt));
  }
  infos.sort((a, b) => (a.key < b.key ? -1 : 1));
  const n = cols.n;
  return {
    from: fromDay(fromD),
    to: fromDay(toD),
    weeks,
    flows: sortWithColumns(flows, {
      day: cols.day.subarray(0, n),
      an: cols.an.subarray(0, n),
      lon: cols.lon.subarray(0, n),
      hin: cols.hin.subarray(0, n),
      sid: cols.sid.subarray(0, n),
      series: index.list,
    }),
    recurring: patterns.map((p) => ({ ...p, enabled: !disabled.has(p.id) })),
    series: infos,
    backtests,
  };
}

/** A bucket of the forecast: flows summed per period and series (the series' fields and the sums as a `Flow`'s). */
export interface BucketRow extends Pick<Flow, "company" | "currency" | "category" | "amount" | "p10" | "p90"> {
  /** First day of the bucket. */
  start: string;
  /** Last day of the bucket (inclusive). */
  end: string;
}

/**
 * The sums of `flows` per bucket and series (docs/forecast.md#buckets): cell `k` is bucket `idx[k]` (0 = the
 * bucket starting on `from`) of series `target[tid[k]]`, with exact sums `a`, `lo`, `hi` of the point, P10 and P90
 * in millionths. Flows before `from` are left out. With `allCompanies`, every company's series of a currency and
 * category is summed under that name.
 */
interface BucketCells {
  f0: number;
  len: number;
  targets: SeriesRef[];
  idx: Int32Array;
  tid: Int32Array;
  /** Whether the sums are the numbers `a`, `lo`, `hi` (exact integers); else they are `big`'s bigints. */
  exact: boolean;
  a: Float64Array;
  lo: Float64Array;
  hi: Float64Array;
  big?: { a: bigint[]; lo: bigint[]; hi: bigint[] };
}

/** A cell's three sums as decimal strings (all significant decimals). */
function cellText(c: BucketCells, k: number): [string, string, string] {
  if (c.exact) return [fromMillionths(c.a[k] ?? 0), fromMillionths(c.lo[k] ?? 0), fromMillionths(c.hi[k] ?? 0)];
  const b = c.big as NonNullable<BucketCells["big"]>;
  return [fromUnits(b.a[k] ?? 0n), fromUnits(b.lo[k] ?? 0n), fromUnits(b.hi[k] ?? 0n)];
}

/** A cell's three sums as bigints. */
function cellUnits(c: BucketCells, k: number): [bigint, bigint, bigint] {
  if (c.exact) return [BigInt(c.a[k] ?? 0), BigInt(c.lo[k] ?? 0), BigInt(c.hi[k] ?? 0)];
  const b = c.big as NonNullable<BucketCells["big"]>;
  return [b.a[k] ?? 0n, b.lo[k] ?? 0n, b.hi[k] ?? 0n];
}

/**
 * Each flow series' row series (docs/forecast.md#buckets): itself, or with `allCompanies` its currency and category
 * under that one name.
 * @returns the row series, and `toTarget[i]` the row of flow series `i` of `series`.
 */
function bucketTargets(
  series: readonly SeriesRef[],
  allCompanies: string | undefined,
): { targets: SeriesRef[]; toTarget: Int32Array } {
  if (allCompanies === undefined) {
    const targets = series.slice();
    return { targets, toTarget: Int32Array.from(targets, (_, i) => i) };
  }
  const ix = new SeriesIndex();
  const toTarget = Int32Array.from(series, (r) => ix.of(allCompanies, r.currency, r.category));
  return { targets: ix.list, toTarget };
}

/**
 * The cells' sums as bigints (`BucketCells.big`), for sums too large to be exact as doubles: each flow of `flows`
 * parsed again and added to the cell `cellOf(i)` gives it (skipped when negative).
 * @throws on a malformed figure of a flow.
 */
function bigCellSums(
  flows: readonly Flow[],
  cells: number,
  cellOf: (i: number) => number,
): NonNullable<BucketCells["big"]> {
  const big = {
    a: new Array<bigint>(cells).fill(0n),
    lo: new Array<bigint>(cells).fill(0n),
    hi: new Array<bigint>(cells).fill(0n),
  };
  for (let i = 0; i < flows.length; i++) {
    const c = cellOf(i);
    if (c < 0) continue;
    const u = flowBigUnits(flows[i] as Flow);
    big.a[c] = (big.a[c] ?? 0n) + u.a;
    big.lo[c] = (big.lo[c] ?? 0n) + u.lo;
    big.hi[c] = (big.hi[c] ?? 0n) + u.hi;
  }
  return big;
}

/** Computes the `BucketCells` of `flows` (see there) for buckets of `granularity` starting on `from`. */
function bucketCells(
  flows: readonly Flow[],
  from: string,
  granularity: "day" | "week",
  allCompanies?: string,
): BucketCells {
  const f0 = toDay(from);
  const len = granularity === "day" ? 1 : 7;
  const cols = flowColumns(flows);
  const n = flows.length;
  // Each flow's series → the row series it is summed under (itself, or its currency and category in the group).
  const { targets, toTarget } = bucketTargets(cols.series, allCompanies);
  const t = targets.length;
  let nb = 0;
  for (let i = 0; i < n; i++) {
    const b = Math.floor(((cols.day[i] ?? 0) - f0) / len);
    if (b + 1 > nb) nb = b + 1;
  }
  // Cells numbered as first seen; a cell's number found through a dense table of bucket × series when that is
  // small beside the flows (a forecast: every series has a flow on most days), else through a map.
  const dense = t * nb <= 4 * n + 65_536;
  const slot = dense ? new Int32Array(t * nb).fill(-1) : undefined;
  const slots = dense ? undefined : new Map<number, number>();
  // At most one cell per flow and per bucket × series: sized by the smaller (52,000 cells, not 365,000, for a
  // group's weeks), since large typed arrays count as external memory and bring on full collections sooner.
  const most = Math.min(n, t * nb);
  const idx = new Int32Array(most);
  const tid = new Int32Array(most);
  const a = new Float64Array(most);
  const lo = new Float64Array(most);
  const hi = new Float64Array(most);
  const count = new Int32Array(most);
  const cellOf = (i: number): number => {
    const b = Math.floor(((cols.day[i] ?? 0) - f0) / len);
    if (b < 0) return -1;
    const key = b * t + (toTarget[cols.sid[i] ?? 0] ?? 0);
    return slot ? (slot[key] ?? -1) : (slots?.get(key) ?? -1);
  };
  let cells = 0;
  let maxCount = 0;
  for (let i = 0; i < n; i++) {
    const b = Math.floor(((cols.day[i] ?? 0) - f0) / len);
    if (b < 0) continue;
    const target = toTarget[cols.sid[i] ?? 0] ?? 0;
    const key = b * t + target;
    let c = slot ? (slot[key] ?? -1) : (slots?.get(key) ?? -1);
    if (c < 0) {
      c = cells++;
      if (slot) slot[key] = c;
      else slots?.set(key, c);
      idx[c] = b;
      tid[c] = target;
    }
    a[c] = (a[c] ?? 0) + (cols.an[i] ?? 0);
    lo[c] = (lo[c] ?? 0) + (cols.lon[i] ?? 0);
    hi[c] = (hi[c] ?? 0) + (cols.hin[i] ?? 0);
    const k = (count[c] ?? 0) + 1;
    count[c] = k;
    if (k > maxCount) maxCount = k;
  }
  const out: BucketCells = {
    f0,
    len,
    targets,
    idx: idx.subarray(0, cells),
    tid: tid.subarray(0, cells),
    exact: exactAsNumbers(maxCount, cols.max),
    a: a.subarray(0, cells),
    lo: lo.subarray(0, cells),
    hi: hi.subarray(0, cells),
  };
  // Too large for exact double sums: the same sums as bigints.
  if (!out.exact) out.big = bigCellSums(flows, cells, cellOf);
  return out;
}

/**
 * Sums flows into daily buckets or 7-day buckets starting on `from` (week 1 = `from` … `from` + 6); flows before
 * `from` are left out. Sums are exact (numbers of millionths while that is exact, else bigints;
 * lib/forecast/flow-units.ts).
 * @returns rows sorted by start, company, currency, category (as the string `start|company|currency|category`).
 * @throws on a malformed date or figure of a flow.
 */
export function bucket(
  flows: readonly Flow[],
  from: string,
  granularity: "day" | "week",
  /** A name to sum every company under (the group view), instead of one row per company. */
  allCompanies?: string,
): BucketRow[] {
  const c = bucketCells(flows, from, granularity, allCompanies);
  const { targets, idx, tid, f0, len } = c;
  const t = targets.length;
  const cells = idx.length;
  // The order of `start|company|currency|category` without a key per row: a start is 10 characters, so rows sort
  // by bucket, then by the series' `company|currency|category` ranked once; one number per row.
  const keys = targets.map((r) => `${r.company}|${r.currency}|${r.category}`);
  const byKey = keys.map((_, i) => i).sort((i, j) => ((keys[i] as string) < (keys[j] as string) ? -1 : 1));
  const rank = new Int32Array(t);
  byKey.forEach((i, r) => (rank[i] = r));
  const order = new Float64Array(cells);
  for (let k = 0; k < cells; k++) order[k] = ((idx[k] ?? 0) * t + (rank[tid[k] ?? 0] ?? 0)) * cells + k;
  order.sort();
  return Array.from(order, (o) => {
    const k = o % cells;
    const r = targets[tid[k] ?? 0] as SeriesRef;
    const s = f0 + (idx[k] ?? 0) * len;
    const [amount, p10, p90] = cellText(c, k);
    return {
      start: fromDay(s),
      end: fromDay(s + len - 1),
      company: r.company,
      currency: r.currency,
      category: r.category,
      amount,
      p10,
      p90,
    };
  });
}

/**
 * `groupBuckets(bucket(flows, from, granularity), reporting, fx)` (lib/forecast/sources.ts) without the rows
 * between: each bucket × company × currency × category sum converted at its currency's rate (rounded to millionths,
 * as a row is), summed per bucket and rounded to 2 decimals. Used for a scenario's group, whose rows the page
 * does not show (docs/forecast.md#speed).
 * @returns the buckets sorted by start, and the currencies without a rate (left out), sorted.
 */
export function groupOfFlows(
  flows: readonly Flow[],
  from: string,
  granularity: "day" | "week",
  reporting: string,
  fx: Readonly<Record<string, FxRate>>,
): { buckets: GroupBucket[]; missing: string[] } {
  const c = bucketCells(flows, from, granularity);
  const rates = c.targets.map((r) => (r.currency === reporting ? "1" : fx[r.currency]?.rate));
  const missing = new Set<string>();
  const sums = new Map<number, { a: bigint; lo: bigint; hi: bigint }>();
  for (let k = 0; k < c.idx.length; k++) {
    const target = c.tid[k] ?? 0;
    const rate = rates[target];
    if (!rate) {
      missing.add((c.targets[target] as SeriesRef).currency);
      continue;
    }
    const b = c.idx[k] ?? 0;
    let e = sums.get(b);
    if (!e) sums.set(b, (e = { a: 0n, lo: 0n, hi: 0n }));
    const [a, lo, hi] = cellUnits(c, k);
    const r = rateUnits(rate);
    e.a += timesRateUnits(a, r);
    e.lo += timesRateUnits(lo, r);
    e.hi += timesRateUnits(hi, r);
  }
  const buckets = [...sums.entries()]
    .sort(([x], [y]) => x - y)
    .map(([b, e]) => {
      const s = c.f0 + b * c.len;
      return {
        start: fromDay(s),
        end: fromDay(s + c.len - 1),
        amount: fromUnits(e.a, 2),
        p10: fromUnits(e.lo, 2),
        p90: fromUnits(e.hi, 2),
      };
    });
  return { buckets, missing: [...missing].sort() };
}
