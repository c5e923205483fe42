/**
 * The forecast engine (docs/forecast.md): known flows first (approved and pending batches on their execution
 * dates, manual lines, recurring payees detected from the history and not switched off), then a statistical
 * remainder per company × currency × category series from the model the backtest chose for it, with a P10/P90
 * band from that model's backtest errors. Output is daily flows; `bucket` sums them by day or by week.
 */
import { backtest, quantileOfSorted, type BacktestResult } from "./backtest";
import { fromDay, toDay } from "./days";
import { fromUnits } from "./fixed";
import {
  centsMillionths,
  exactAsNumbers,
  flowBigUnits,
  flowColumns,
  flowMillionths,
  sortWithColumns,
} from "./flow-units";
import { expandManualLine } from "./manual";
import { BASELINE, runModel, type HwFitMemo, type ModelName } from "./models";
import { detectRecurring, projectRecurring, type RecurringPattern } from "./recurring";
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

/** Holt-Winters' grid choice per series, with the window it was made on (lib/forecast/models.ts `HwFitMemo`). */
const hwFits: HwFitMemo["fits"] = new Map();

/**
 * Builds the forecast for `weeks` weeks after `asOf`.
 * @throws RangeError when `weeks` is not an integer in 1–26; Error on a malformed date.
 */
export function buildForecast(input: ForecastInput): Forecast {
  const { weeks } = input;
  if (!Number.isInteger(weeks) || weeks < 1 || weeks > MAX_WEEKS) throw new RangeError("weeks must be 1–26");
  const asOfDay = toDay(input.asOf);
  const fromD = asOfDay + 1;
  const toD = asOfDay + weeks * 7;
  const from = fromDay(fromD);
  const to = fromDay(toD);
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
  for (const line of input.manualLines ?? []) flows.push(...expandManualLine(line, from, to));

  const { patterns, matched } = detectRecurring(input.history, input.asOf);
  const disabled = input.disabledRecurring ?? new Set<string>();
  for (const p of patterns) if (!disabled.has(p.id)) flows.push(...projectRecurring(p, fromD, toD));
  // The flows' columns (lib/forecast/flow-units.ts), index for index, built as the flows are made so the date sort
  // and every read take them without parsing the flows again: the known flows' figures parsed here, the
  // statistical ones taken from the estimates below.
  const day: number[] = [];
  const an: number[] = [];
  const lon: number[] = [];
  const hin: number[] = [];
  for (const f of flows) {
    const [a, lo, hi] = flowMillionths(f);
    day.push(toDay(f.date));
    an.push(a);
    lon.push(lo);
    hin.push(hi);
  }

  // The remainder: daily sums per series over the model window, recurring payees left out.
  const historyDays = input.historyDays ?? 728;
  const start = asOfDay - historyDays + 1;
  type Series = { company: string; currency: string; category: string; y: number[] };
  const series = new Map<string, Series>();
  // company → currency → category: no key string per transaction; a run of one series' transactions (the usual
  // order of a read) skips even the lookups.
  const byCompany = new Map<string, Map<string, Map<string, Series>>>();
  let last: Series | undefined;
  const history = input.history;
  for (let i = 0; i < history.length; i++) {
    if (matched.has(i)) continue;
    const t = history[i] as HistoryTxn;
    const d = toDay(t.date);
    if (d < start || d > asOfDay) continue;
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
    s.y[d - start] = (s.y[d - start] ?? 0) + Number(t.amount);
  }

  const infos: SeriesInfo[] = [];
  const backtests = new Map<string, BacktestResult>();
  const h = weeks * 7;
  const dates = Array.from({ length: h }, (_, i) => fromDay(fromD + i));
  for (const [key, s] of series) {
    // Trim the leading days before the series' first flow: a new category is not a year of zeros.
    let first = 0;
    while (first < s.y.length && s.y[first] === 0) first++;
    const y = s.y.slice(first);
    if (y.length === 0) continue;
    const bt = input.backtests?.get(key) ?? backtest(y, start + first);
    backtests.set(key, bt);
    const model = bt.chosen;
    const point = runModel(model, y, h, start + first, { fits: hwFits, key });
    const errs = bt.models[model]?.errors;
    let bandSd = 0;
    if (!errs || bt.origins < 4) {
      // Too few origins for an empirical band: a normal band from the week-to-week spread of the history.
      const wk: number[] = [];
      for (let i = y.length % 7; i + 7 <= y.length; i += 7) wk.push(y.slice(i, i + 7).reduce((a, b) => a + b, 0));
      let v = 0;
      for (let i = 1; i < wk.length; i++) v += ((wk[i] ?? 0) - (wk[i - 1] ?? 0)) ** 2;
      bandSd = wk.length > 1 ? Math.sqrt(v / (2 * (wk.length - 1))) : 0;
    }
    const empirical = errs !== undefined && bt.origins >= 4;
    const sorted = empirical ? errs.map((e) => [...e].sort((a, b) => a - b)) : [];
    const los = sorted.map((e) => quantileOfSorted(e, 0.1));
    const his = sorted.map((e) => quantileOfSorted(e, 0.9));
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
      day.push(fromD + i);
      if (Math.abs(p) < 1e9 && Math.abs(pLo) < 1e9 && Math.abs(pHi) < 1e9) {
        an.push(centsMillionths(f.amount));
        lon.push(centsMillionths(f.p10));
        hin.push(centsMillionths(f.p90));
      } else {
        // Not a finite estimate below 1e9: parsed and checked like any flow (the bigint path, or an error).
        const [a, l, u] = flowMillionths(f);
        an.push(a);
        lon.push(l);
        hin.push(u);
      }
    }
    const chosen = bt.models[model];
    infos.push({
      key,
      company: s.company,
      currency: s.currency,
      category: s.category,
      model,
      origins: bt.origins,
      wape: chosen?.wape ?? null,
      baseline_wape: bt.models[BASELINE]?.wape ?? null,
      mase: chosen?.mase ?? null,
    });
  }
  infos.sort((a, b) => (a.key < b.key ? -1 : 1));
  return {
    from,
    to,
    weeks,
    flows: sortWithColumns(flows, day, an, lon, hin),
    recurring: patterns.map((p) => ({ ...p, enabled: !disabled.has(p.id) })),
    series: infos,
    backtests,
  };
}

/** A bucket of the forecast: flows summed per period and series. */
export interface BucketRow {
  /** First day of the bucket. */
  start: string;
  /** Last day of the bucket (inclusive). */
  end: string;
  company: string;
  currency: string;
  category: string;
  amount: string;
  p10: string;
  p90: string;
}

/**
 * Sums flows into daily buckets or 7-day buckets starting on `from` (week 1 = `from` … `from` + 6).
 * @returns rows sorted by start, company, currency, category.
 */
export function bucket(
  flows: readonly Flow[],
  from: string,
  granularity: "day" | "week",
  /** A name to sum every company under (the group view), instead of one row per company. */
  allCompanies?: string,
): BucketRow[] {
  const f0 = toDay(from);
  const len = granularity === "day" ? 1 : 7;
  // Sums as numbers of millionths while that is exact (lib/forecast/flow-units.ts), else as bigints.
  type Acc = { row: BucketRow; n: number; a: number; lo: number; hi: number; ab: bigint; lob: bigint; hib: bigint };
  // company → currency → category → bucket index: no key string per flow.
  const acc = new Map<string, Map<string, Map<string, Acc[]>>>();
  const all: Acc[] = [];
  let maxCount = 0;
  const cols = flowColumns(flows);
  const max = cols.max;
  for (let i = 0; i < flows.length; i++) {
    const fl = flows[i] as Flow;
    const idx = Math.floor(((cols.day[i] ?? 0) - f0) / len);
    if (idx < 0) continue;
    const company = allCompanies ?? fl.company;
    let byCur = acc.get(company);
    if (!byCur) acc.set(company, (byCur = new Map()));
    let byCat = byCur.get(fl.currency);
    if (!byCat) byCur.set(fl.currency, (byCat = new Map()));
    let list = byCat.get(fl.category);
    if (!list) byCat.set(fl.category, (list = []));
    let e = list[idx];
    if (!e) {
      const s = f0 + idx * len;
      e = list[idx] = {
        row: {
          start: fromDay(s),
          end: fromDay(s + len - 1),
          company,
          currency: fl.currency,
          category: fl.category,
          amount: "0",
          p10: "0",
          p90: "0",
        },
        n: 0,
        a: 0,
        lo: 0,
        hi: 0,
        ab: 0n,
        lob: 0n,
        hib: 0n,
      };
      all.push(e);
    }
    e.a += cols.an[i] ?? 0;
    e.lo += cols.lon[i] ?? 0;
    e.hi += cols.hin[i] ?? 0;
    if (++e.n > maxCount) maxCount = e.n;
  }
  if (!exactAsNumbers(maxCount, max)) {
    // Too large for exact double sums: the same sums as bigints.
    for (const e of all) e.ab = e.lob = e.hib = 0n;
    for (let i = 0; i < flows.length; i++) {
      const fl = flows[i] as Flow;
      const idx = Math.floor(((cols.day[i] ?? 0) - f0) / len);
      if (idx < 0) continue;
      const e = acc
        .get(allCompanies ?? fl.company)
        ?.get(fl.currency)
        ?.get(fl.category)?.[idx];
      if (!e) continue;
      const b = flowBigUnits(fl);
      e.ab += b.a;
      e.lob += b.lo;
      e.hib += b.hi;
    }
  } else for (const e of all) [e.ab, e.lob, e.hib] = [BigInt(e.a), BigInt(e.lo), BigInt(e.hi)];
  const rows = all.map((e) => ({
    ...e.row,
    amount: fromUnits(e.ab),
    p10: fromUnits(e.lob),
    p90: fromUnits(e.hib),
  }));
  // Each key built once, not twice per comparison (some 56,000 rows for 50 companies).
  const keys = rows.map((r) => `${r.start}|${r.company}|${r.currency}|${r.category}`);
  const order = rows.map((_, i) => i);
  order.sort((i, j) => {
    const a = keys[i] as string;
    const b = keys[j] as string;
    return a < b ? -1 : a > b ? 1 : 0;
  });
  return order.map((i) => rows[i] as BucketRow);
}
