/**
 * Scenarios on a forecast (docs/forecast.md#scenarios): adjustments applied in order to the matching flows —
 * scale by ± %, shift by N days, drop, add a flow — and a different FX rate for the conversion; then the daily
 * balance path from the opening balances, its lowest point and date per currency, per company and currency,
 * and in the reporting currency, and the companies whose balance falls below their minimum-cash threshold.
 */
import Decimal from "decimal.js";
import { fromDay, toDay } from "./days";
import { fromUnits, rateUnits, timesRate, timesRateUnits, toUnits } from "./fixed";
import {
  exactAsNumbers,
  flowColumns,
  flowMillionths,
  SeriesIndex,
  sortWithColumns,
  type SeriesRef,
} from "./flow-units";
import type { Flow } from "./types";

/** Which flows an adjustment touches; every given field must match. Dates are inclusive. */
export interface FlowFilter {
  company?: string;
  currency?: string;
  category?: string;
  source?: Flow["source"];
  /** Flow id (manual line id, batch id, recurring pattern id). */
  ref?: string;
  from?: string;
  to?: string;
}

/** One adjustment of a scenario. */
export type Adjustment =
  | { type: "percent"; filter: FlowFilter; /** "-10" = 10 % less. */ percent: string }
  | { type: "shift"; filter: FlowFilter; /** −365…365. */ days: number }
  | { type: "drop"; filter: FlowFilter }
  | {
      type: "add";
      flow: { date: string; amount: string; currency: string; company: string; category: string; label?: string };
    }
  | { type: "fx"; currency: string; /** Reporting-currency units per unit of `currency`. */ rate: string };

/** A rate to the reporting currency and the date it is from. */
export interface FxRate {
  rate: string;
  date: string;
}

/** Most days a shift may move a flow. */
export const MAX_SHIFT_DAYS = 365;

/**
 * The flows a scenario is adjusting and their columns (lib/forecast/flow-units.ts), index for index: a flow left
 * as it was keeps its parsed figures, a changed one is parsed once. Rows `0…n-1` are in use; `index` numbers the
 * series once an added flow may bring a new one.
 */
interface ScenarioFlows {
  out: Flow[];
  n: number;
  day: Int32Array;
  an: Float64Array;
  lon: Float64Array;
  hin: Float64Array;
  sid: Int32Array;
  series: readonly SeriesRef[];
  index?: SeriesIndex;
}

/** `flows` and their columns with room for `extra` more flows. @throws on a malformed figure or date of a flow. */
function scenarioFlows(flows: readonly Flow[], extra: number): ScenarioFlows {
  const c = flowColumns(flows);
  const cap = flows.length + extra;
  const w: ScenarioFlows = {
    out: flows.slice(),
    n: flows.length,
    day: new Int32Array(cap),
    an: new Float64Array(cap),
    lon: new Float64Array(cap),
    hin: new Float64Array(cap),
    sid: new Int32Array(cap),
    series: c.series,
  };
  w.day.set(c.day);
  w.an.set(c.an);
  w.lon.set(c.lon);
  w.hin.set(c.hin);
  w.sid.set(c.sid);
  return w;
}

/** Keeps the flows (and their columns) for which `ok(flow, row)` holds, in order. */
function keepFlows(w: ScenarioFlows, ok: (f: Flow, i: number) => boolean): void {
  const { out, day, an, lon, hin, sid } = w;
  let j = 0;
  for (let i = 0; i < w.n; i++) {
    if (!ok(out[i] as Flow, i)) continue;
    out[j] = out[i] as Flow;
    day[j] = day[i] ?? 0;
    an[j] = an[i] ?? 0;
    lon[j] = lon[i] ?? 0;
    hin[j] = hin[i] ?? 0;
    sid[j] = sid[i] ?? 0;
    j++;
  }
  out.length = w.n = j;
}

/** Whether a flow (and its row) matches filter `q`: its company, currency and category decided once per series. */
function flowMatcher(w: ScenarioFlows, q: FlowFilter): (f: Flow, i: number) => boolean {
  const bySeries = Uint8Array.from(w.series, (r) =>
    (q.company === undefined || r.company === q.company) &&
    (q.currency === undefined || r.currency === q.currency) &&
    (q.category === undefined || r.category === q.category)
      ? 1
      : 0,
  );
  const sid = w.sid;
  return (f: Flow, i: number): boolean =>
    bySeries[sid[i] ?? 0] === 1 &&
    (q.source === undefined || f.source === q.source) &&
    (q.ref === undefined || f.ref === q.ref) &&
    (q.from === undefined || f.date >= q.from) &&
    (q.to === undefined || f.date <= q.to);
}

/**
 * A `percent` adjustment: the matching flows' amount, P10 and P90 scaled by 1 + percent / 100, rounded to cents.
 * @throws Error on a malformed percent.
 */
function scaleFlows(w: ScenarioFlows, a: Extract<Adjustment, { type: "percent" }>): void {
  const k = new Decimal(a.percent).div(100).plus(1).toFixed();
  const scale = (v: string) => fromUnits(timesRate(toUnits(v), k), 2);
  const matches = flowMatcher(w, a.filter);
  for (let i = 0; i < w.n; i++) {
    const f = w.out[i] as Flow;
    if (!matches(f, i)) continue;
    const g = { ...f, amount: scale(f.amount), p10: scale(f.p10), p90: scale(f.p90) };
    w.out[i] = g;
    [w.an[i], w.lon[i], w.hin[i]] = flowMillionths(g);
  }
}

/**
 * A `shift` adjustment: the matching flows moved by `days`; flows that leave the days `fromD`–`toD` are dropped.
 * @throws RangeError when `days` is not an integer within ±365.
 */
function shiftFlows(w: ScenarioFlows, a: Extract<Adjustment, { type: "shift" }>, fromD: number, toD: number): void {
  if (!Number.isInteger(a.days) || Math.abs(a.days) > MAX_SHIFT_DAYS)
    throw new RangeError(`shift days must be an integer within ±${MAX_SHIFT_DAYS}`);
  const matches = flowMatcher(w, a.filter);
  const day = w.day;
  for (let i = 0; i < w.n; i++) {
    const f = w.out[i] as Flow;
    if (!matches(f, i)) continue;
    const d = (day[i] ?? 0) + a.days;
    w.out[i] = { ...f, date: fromDay(d) };
    day[i] = d;
  }
  keepFlows(w, (_, i) => (day[i] ?? 0) >= fromD && (day[i] ?? 0) <= toD);
}

/**
 * An `add` adjustment: the flow (source "scenario", its band its amount) appended when its date is in `range`.
 * @throws Error on a malformed figure or date of the flow.
 */
function addFlow(w: ScenarioFlows, a: Extract<Adjustment, { type: "add" }>, range: { from: string; to: string }): void {
  if (a.flow.date < range.from || a.flow.date > range.to) return;
  const g: Flow = { ...a.flow, p10: a.flow.amount, p90: a.flow.amount, source: "scenario" };
  const [x, lo, hi] = flowMillionths(g);
  if (!w.index) w.series = (w.index = new SeriesIndex(w.series)).list;
  const n = w.n;
  w.out.push(g);
  w.day[n] = toDay(g.date);
  w.an[n] = x;
  w.lon[n] = lo;
  w.hin[n] = hi;
  w.sid[n] = w.index.of(g.company, g.currency, g.category);
  w.n = n + 1;
}

/**
 * Applies `adjustments` in order to `flows` (docs/forecast.md#scenarios). Flows shifted out of `[from, to]` leave
 * the forecast.
 * @returns the adjusted flows (dates sorted) and the FX rates with the scenario's overrides.
 * @throws RangeError on a shift beyond ±365 days; Error on a malformed figure or date of an added flow.
 */
export function applyScenario(
  flows: readonly Flow[],
  adjustments: readonly Adjustment[],
  range: { from: string; to: string },
  fx: Readonly<Record<string, FxRate>> = {},
): { flows: Flow[]; fx: Record<string, FxRate> } {
  // Room for the flows plus one per `add`.
  const w = scenarioFlows(flows, adjustments.filter((a) => a.type === "add").length);
  const fromD = toDay(range.from);
  const toD = toDay(range.to);
  const rates: Record<string, FxRate> = { ...fx };
  for (const a of adjustments) {
    switch (a.type) {
      case "percent":
        scaleFlows(w, a);
        break;
      case "shift":
        shiftFlows(w, a, fromD, toD);
        break;
      case "drop": {
        const matches = flowMatcher(w, a.filter);
        keepFlows(w, (f, i) => !matches(f, i));
        break;
      }
      case "add":
        addFlow(w, a, range);
        break;
      case "fx":
        rates[a.currency] = { rate: a.rate, date: "scenario" };
        break;
    }
  }
  const n = w.n;
  const cols = {
    day: w.day.subarray(0, n),
    an: w.an.subarray(0, n),
    lon: w.lon.subarray(0, n),
    hin: w.hin.subarray(0, n),
    sid: w.sid.subarray(0, n),
    series: w.series,
  };
  return { flows: sortWithColumns(w.out, cols), fx: rates };
}

/** A lowest balance and the first day it occurs. */
export interface Low {
  amount: string;
  date: string;
}

/** Balances of one scenario. */
export interface BalanceSummary {
  /** Per currency, all companies. */
  byCurrency: { currency: string; opening: string; closing: string; lowest: Low }[];
  /** Per company and currency. */
  byCompany: { company: string; currency: string; opening: string; closing: string; lowest: Low }[];
  /** All companies in the reporting currency at the given rates; null when a currency has no rate. */
  reporting: { currency: string; opening: string; closing: string; lowest: Low; missing_rates: string[] };
  /** Companies whose balance in the reporting currency falls below their threshold, with the first such day. */
  breaches: { company: string; threshold: string; lowest: Low; first_breach: string }[];
  /** Daily closing balance in the reporting currency (`from`…`to`). */
  path: { date: string; amount: string }[];
}

/** Inputs of `balances`: amounts are decimal strings, dates `YYYY-MM-DD`. */
export interface BalancesInput {
  flows: readonly Flow[];
  openings: readonly { company: string; currency: string; amount: string }[];
  from: string;
  to: string;
  reportingCurrency: string;
  fx: Readonly<Record<string, FxRate>>;
  thresholds?: Readonly<Record<string, string>>;
}

/**
 * The daily net flow (`deltas`, one entry per day `from`…`to`) and the opening balance per `company|currency`,
 * exact (lib/forecast/fixed.ts units); a key for every opening and every company|currency with a flow in range.
 * Flows outside the days are left out.
 * @throws on a malformed figure of a flow or opening.
 */
function dailyDeltas(args: BalancesInput): { deltas: Map<string, bigint[]>; opening: Map<string, bigint> } {
  const f0 = toDay(args.from);
  const n = toDay(args.to) - f0 + 1;
  const deltas = new Map<string, bigint[]>();
  const opening = new Map<string, bigint>();
  const ensure = (k: string): bigint[] => {
    let d = deltas.get(k);
    if (!d) deltas.set(k, (d = new Array<bigint>(n).fill(0n)));
    if (!opening.has(k)) opening.set(k, 0n);
    return d;
  };
  for (const o of args.openings) {
    const k = `${o.company}|${o.currency}`;
    ensure(k);
    opening.set(k, (opening.get(k) ?? 0n) + toUnits(o.amount));
  }
  // company → currency → daily deltas as numbers of millionths, looked up once per series (lib/forecast/flow-units.ts
  // `sid`), so a flow costs no lookup, no key string and no bigint; turned into bigints below, or summed again as bigints when numbers would not be exact
  // (lib/forecast/flow-units.ts).
  type Cell = { d: Float64Array; count: number };
  const nested = new Map<string, Map<string, Cell>>();
  const numeric = new Map<string, Cell>();
  let count = 0;
  const cols = flowColumns(args.flows);
  const max = cols.max;
  // Each series' company|currency cell, found on its first flow in range.
  const cellOf = new Array<Cell | undefined>(cols.series.length);
  for (let j = 0; j < args.flows.length; j++) {
    const i = (cols.day[j] ?? 0) - f0;
    if (i < 0 || i >= n) continue;
    const sid = cols.sid[j] ?? 0;
    let c = cellOf[sid];
    if (!c) {
      const f = args.flows[j] as Flow;
      let byCurrency = nested.get(f.company);
      if (!byCurrency) nested.set(f.company, (byCurrency = new Map()));
      c = byCurrency.get(f.currency);
      if (!c) {
        byCurrency.set(f.currency, (c = { d: new Float64Array(n), count: 0 }));
        const k = `${f.company}|${f.currency}`;
        ensure(k);
        numeric.set(k, c);
      }
      cellOf[sid] = c;
    }
    c.d[i] = (c.d[i] ?? 0) + (cols.an[j] ?? 0);
    // A day's sum has at most as many terms as its company|currency has flows.
    if (++c.count > count) count = c.count;
  }
  if (exactAsNumbers(count, max)) {
    for (const [k, { d }] of numeric) {
      const into = ensure(k);
      for (let i = 0; i < n; i++) into[i] = (into[i] ?? 0n) + BigInt(d[i] ?? 0);
    }
  } else
    for (let j = 0; j < args.flows.length; j++) {
      const f = args.flows[j] as Flow;
      const i = (cols.day[j] ?? 0) - f0;
      if (i < 0 || i >= n) continue;
      const d = ensure(`${f.company}|${f.currency}`);
      d[i] = (d[i] ?? 0n) + toUnits(f.amount);
    }
  return { deltas, opening };
}

/** The end-of-day balances from `open` through the daily nets `d` (exact units). */
function pathOf(open: bigint, d: readonly bigint[]): bigint[] {
  const p = new Array<bigint>(d.length);
  let b = open;
  for (let i = 0; i < d.length; i++) p[i] = b += d[i] ?? 0n;
  return p;
}

/**
 * The lowest balance of path `p` (whose day 0 is day number `f0`) and the first day it occurs; `open` when the
 * path is empty. Rounded to `dp` decimals when given.
 */
function lowOf(f0: number, open: bigint, p: readonly bigint[], dp?: number): Low {
  let best = p[0] ?? open;
  let at = 0;
  for (let i = 1; i < p.length; i++) {
    const v = p[i] ?? 0n;
    if (v < best) [best, at] = [v, i];
  }
  return { amount: fromUnits(best, dp), date: fromDay(f0 + at) };
}

/** Each day of a company|currency path `p` converted once at `rate`, added into its company's path `a` and the total `b`. */
function addConverted(a: bigint[], b: bigint[], p: readonly bigint[], rate: string): void {
  const r = rateUnits(rate);
  for (let i = 0; i < p.length; i++) {
    const v = timesRateUnits(p[i] ?? 0n, r);
    a[i] = (a[i] ?? 0n) + v;
    b[i] = (b[i] ?? 0n) + v;
  }
}

/**
 * The companies whose path in the reporting currency (`comp`) falls below their `thresholds`, sorted by company,
 * with the lowest point (2 decimals) and first day below; day 0 of a path is day number `f0`.
 * @throws on a malformed threshold.
 */
function breachesOf(
  thresholds: Readonly<Record<string, string>>,
  comp: ReadonlyMap<string, { open: bigint; p: bigint[] }>,
  f0: number,
): BalanceSummary["breaches"] {
  const breaches: BalanceSummary["breaches"] = [];
  for (const [company, threshold] of Object.entries(thresholds).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const cp = comp.get(company);
    if (!cp) continue;
    const t = toUnits(threshold);
    const first = cp.p.findIndex((v) => v < t);
    if (first < 0) continue;
    breaches.push({
      company,
      threshold: fromUnits(t),
      lowest: lowOf(f0, cp.open, cp.p, 2),
      first_breach: fromDay(f0 + first),
    });
  }
  return breaches;
}

/**
 * Daily balance paths from `openings` through `flows` over `[from, to]` (docs/forecast.md#scenarios): end-of-day
 * balances, the lowest one (the first day on a tie) per currency, per company and currency, and in
 * `reportingCurrency` at `fx` (rounded to 2 decimals). `thresholds` is the minimum cash per company in the
 * reporting currency.
 * @throws Error on a malformed date or figure.
 */
export function balances(args: BalancesInput): BalanceSummary {
  const f0 = toDay(args.from);
  const n = toDay(args.to) - f0 + 1;
  const rc = args.reportingCurrency;
  const rateOf = (c: string): string | null => (c === rc ? "1" : (args.fx[c]?.rate ?? null));
  const zero = (): bigint[] => new Array<bigint>(n).fill(0n);
  const { deltas, opening } = dailyDeltas(args);

  const byCompany: BalanceSummary["byCompany"] = [];
  const cur = new Map<string, { open: bigint; d: bigint[] }>();
  const comp = new Map<string, { open: bigint; p: bigint[] }>();
  const missing = new Set<string>();
  const total = { open: 0n, p: zero() };
  for (const [k, d] of [...deltas.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [company = "", currency = ""] = k.split("|");
    const open = opening.get(k) ?? 0n;
    const p = pathOf(open, d);
    byCompany.push({
      company,
      currency,
      opening: fromUnits(open),
      closing: fromUnits(p[n - 1] ?? open),
      lowest: lowOf(f0, open, p),
    });
    let c = cur.get(currency);
    if (!c) cur.set(currency, (c = { open: 0n, d: zero() }));
    c.open += open;
    for (let i = 0; i < n; i++) c.d[i] = (c.d[i] ?? 0n) + (d[i] ?? 0n);
    const r = rateOf(currency);
    if (!r) {
      missing.add(currency);
      continue;
    }
    let cp = comp.get(company);
    if (!cp) comp.set(company, (cp = { open: 0n, p: zero() }));
    const o = timesRate(open, r);
    cp.open += o;
    total.open += o;
    addConverted(cp.p, total.p, p, r);
  }
  const byCurrency = [...cur.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, c]) => {
      const p = pathOf(c.open, c.d);
      return {
        currency,
        opening: fromUnits(c.open),
        closing: fromUnits(p[n - 1] ?? c.open),
        lowest: lowOf(f0, c.open, p),
      };
    });
  return {
    byCurrency,
    byCompany,
    reporting: {
      currency: rc,
      opening: fromUnits(total.open, 2),
      closing: fromUnits(total.p[n - 1] ?? total.open, 2),
      lowest: lowOf(f0, total.open, total.p, 2),
      missing_rates: [...missing].sort(),
    },
    breaches: breachesOf(args.thresholds ?? {}, comp, f0),
    path: total.p.map((v, i) => ({ date: fromDay(f0 + i), amount: fromUnits(v, 2) })),
  };
}
