/**
 * Scenarios on a forecast (docs/forecast.md#scenarios): adjustments applied in order to the matching flows —
 * scale by ± %, shift by N days, drop, add a flow — and a different FX rate for the conversion; then the daily
 * balance path from the opening balances, its lowest point and date per currency, per company and currency,
 * and in the reporting currency, and the companies whose balance falls below their minimum-cash threshold.
 */
import Decimal from "decimal.js";
import { fromDay, toDay } from "./days";
import { fromUnits, rateUnits, timesRate, timesRateUnits, toUnits } from "./fixed";
import { exactAsNumbers, flowColumns, flowMillionths, SeriesIndex, sortWithColumns } from "./flow-units";
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
 * Applies `adjustments` in order to `flows`. Flows shifted out of `[from, to]` leave the forecast.
 * @returns the adjusted flows (dates sorted) and the FX rates with the scenario's overrides.
 * @throws RangeError on a shift beyond ±365 days; Error on a malformed figure or date of an added flow.
 */
export function applyScenario(
  flows: readonly Flow[],
  adjustments: readonly Adjustment[],
  range: { from: string; to: string },
  fx: Readonly<Record<string, FxRate>> = {},
): { flows: Flow[]; fx: Record<string, FxRate> } {
  // The flows and their columns (lib/forecast/flow-units.ts), index for index: a flow left as it was keeps its
  // parsed figures, a changed one is parsed once. Room for the flows plus one per `add`.
  const c = flowColumns(flows);
  const cap = flows.length + adjustments.filter((a) => a.type === "add").length;
  const out = flows.slice();
  let n = flows.length;
  const day = new Int32Array(cap);
  const an = new Float64Array(cap);
  const lon = new Float64Array(cap);
  const hin = new Float64Array(cap);
  const sid = new Int32Array(cap);
  day.set(c.day);
  an.set(c.an);
  lon.set(c.lon);
  hin.set(c.hin);
  sid.set(c.sid);
  let series = c.series;
  let index: SeriesIndex | undefined;
  const keep = (ok: (f: Flow, i: number) => boolean) => {
    let j = 0;
    for (let i = 0; i < n; i++) {
      if (!ok(out[i] as Flow, i)) continue;
      out[j] = out[i] as Flow;
      day[j] = day[i] ?? 0;
      an[j] = an[i] ?? 0;
      lon[j] = lon[i] ?? 0;
      hin[j] = hin[i] ?? 0;
      sid[j] = sid[i] ?? 0;
      j++;
    }
    out.length = n = j;
  };
  // Whether a flow matches a filter: its company, currency and category decided once per series.
  const matcher = (q: FlowFilter) => {
    const bySeries = Uint8Array.from(series, (r) =>
      (q.company === undefined || r.company === q.company) &&
      (q.currency === undefined || r.currency === q.currency) &&
      (q.category === undefined || r.category === q.category)
        ? 1
        : 0,
    );
    return (f: Flow, i: number): boolean =>
      bySeries[sid[i] ?? 0] === 1 &&
      (q.source === undefined || f.source === q.source) &&
      (q.ref === undefined || f.ref === q.ref) &&
      (q.from === undefined || f.date >= q.from) &&
      (q.to === undefined || f.date <= q.to);
  };
  const fromD = toDay(range.from);
  const toD = toDay(range.to);
  const rates: Record<string, FxRate> = { ...fx };
  for (const a of adjustments) {
    switch (a.type) {
      case "percent": {
        const k = new Decimal(a.percent).div(100).plus(1).toFixed();
        const scale = (v: string) => fromUnits(timesRate(toUnits(v), k), 2);
        const matches = matcher(a.filter);
        for (let i = 0; i < n; i++) {
          const f = out[i] as Flow;
          if (!matches(f, i)) continue;
          const g = { ...f, amount: scale(f.amount), p10: scale(f.p10), p90: scale(f.p90) };
          out[i] = g;
          [an[i], lon[i], hin[i]] = flowMillionths(g);
        }
        break;
      }
      case "shift": {
        if (!Number.isInteger(a.days) || Math.abs(a.days) > MAX_SHIFT_DAYS)
          throw new RangeError(`shift days must be an integer within ±${MAX_SHIFT_DAYS}`);
        const matches = matcher(a.filter);
        for (let i = 0; i < n; i++) {
          const f = out[i] as Flow;
          if (!matches(f, i)) continue;
          const d = (day[i] ?? 0) + a.days;
          out[i] = { ...f, date: fromDay(d) };
          day[i] = d;
        }
        keep((_, i) => (day[i] ?? 0) >= fromD && (day[i] ?? 0) <= toD);
        break;
      }
      case "drop": {
        const matches = matcher(a.filter);
        keep((f, i) => !matches(f, i));
        break;
      }
      case "add":
        if (a.flow.date >= range.from && a.flow.date <= range.to) {
          const g: Flow = { ...a.flow, p10: a.flow.amount, p90: a.flow.amount, source: "scenario" };
          const [x, lo, hi] = flowMillionths(g);
          if (!index) series = (index = new SeriesIndex(series)).list;
          out.push(g);
          day[n] = toDay(g.date);
          an[n] = x;
          lon[n] = lo;
          hin[n] = hi;
          sid[n] = index.of(g.company, g.currency, g.category);
          n++;
        }
        break;
      case "fx":
        rates[a.currency] = { rate: a.rate, date: "scenario" };
        break;
    }
  }
  const cols = {
    day: day.subarray(0, n),
    an: an.subarray(0, n),
    lon: lon.subarray(0, n),
    hin: hin.subarray(0, n),
    sid: sid.subarray(0, n),
    series,
  };
  return { flows: sortWithColumns(out, cols), fx: rates };
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

/**
 * Daily balance paths from `openings` through `flows` over `[from, to]`: end-of-day balances, the lowest one
 * (the first day on a tie) per currency, per company and currency, and in `reportingCurrency` at `fx`
 * (rounded to 2 decimals). `thresholds` is the minimum cash per company in the reporting currency.
 */
export function balances(args: {
  flows: readonly Flow[];
  openings: readonly { company: string; currency: string; amount: string }[];
  from: string;
  to: string;
  reportingCurrency: string;
  fx: Readonly<Record<string, FxRate>>;
  thresholds?: Readonly<Record<string, string>>;
}): BalanceSummary {
  const f0 = toDay(args.from);
  const n = toDay(args.to) - f0 + 1;
  const rc = args.reportingCurrency;
  const rateOf = (c: string): string | null => (c === rc ? "1" : (args.fx[c]?.rate ?? null));
  const zero = (): bigint[] => new Array<bigint>(n).fill(0n);
  // Daily net flow and opening per company|currency, exact (lib/forecast/fixed.ts units).
  const deltas = new Map<string, bigint[]>();
  const opening = new Map<string, bigint>();
  const ensure = (k: string): bigint[] => {
    let d = deltas.get(k);
    if (!d) deltas.set(k, (d = zero()));
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
  const pathOf = (open: bigint, d: readonly bigint[]): bigint[] => {
    const p = new Array<bigint>(d.length);
    let b = open;
    for (let i = 0; i < d.length; i++) p[i] = b += d[i] ?? 0n;
    return p;
  };
  const lowOf = (open: bigint, p: readonly bigint[], dp?: number): Low => {
    let best = p[0] ?? open;
    let at = 0;
    for (let i = 1; i < p.length; i++) {
      const v = p[i] ?? 0n;
      if (v < best) [best, at] = [v, i];
    }
    return { amount: fromUnits(best, dp), date: fromDay(f0 + at) };
  };
  // Each day of a company|currency path converted once, into its company's path and the total.
  const add = (a: bigint[], b: bigint[], p: readonly bigint[], rate: string) => {
    const r = rateUnits(rate);
    for (let i = 0; i < p.length; i++) {
      const v = timesRateUnits(p[i] ?? 0n, r);
      a[i] = (a[i] ?? 0n) + v;
      b[i] = (b[i] ?? 0n) + v;
    }
  };

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
      lowest: lowOf(open, p),
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
    add(cp.p, total.p, p, r);
  }
  const byCurrency = [...cur.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, c]) => {
      const p = pathOf(c.open, c.d);
      return {
        currency,
        opening: fromUnits(c.open),
        closing: fromUnits(p[n - 1] ?? c.open),
        lowest: lowOf(c.open, p),
      };
    });
  const breaches: BalanceSummary["breaches"] = [];
  for (const [company, threshold] of Object.entries(args.thresholds ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const cp = comp.get(company);
    if (!cp) continue;
    const t = toUnits(threshold);
    const first = cp.p.findIndex((v) => v < t);
    if (first < 0) continue;
    breaches.push({
      company,
      threshold: fromUnits(t),
      lowest: lowOf(cp.open, cp.p, 2),
      first_breach: fromDay(f0 + first),
    });
  }
  return {
    byCurrency,
    byCompany,
    reporting: {
      currency: rc,
      opening: fromUnits(total.open, 2),
      closing: fromUnits(total.p[n - 1] ?? total.open, 2),
      lowest: lowOf(total.open, total.p, 2),
      missing_rates: [...missing].sort(),
    },
    breaches,
    path: total.p.map((v, i) => ({ date: fromDay(f0 + i), amount: fromUnits(v, 2) })),
  };
}
