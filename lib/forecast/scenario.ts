/**
 * Scenarios on a forecast (docs/forecast.md#scenarios): adjustments applied in order to the matching flows —
 * scale by ± %, shift by N days, drop, add a flow — and a different FX rate for the conversion; then the daily
 * balance path from the opening balances, its lowest point and date per currency, per company and currency,
 * and in the reporting currency, and the companies whose balance falls below their minimum-cash threshold.
 */
import Decimal from "decimal.js";
import { fromDay, toDay } from "./days";
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

function matches(f: Flow, q: FlowFilter): boolean {
  return (
    (q.company === undefined || f.company === q.company) &&
    (q.currency === undefined || f.currency === q.currency) &&
    (q.category === undefined || f.category === q.category) &&
    (q.source === undefined || f.source === q.source) &&
    (q.ref === undefined || f.ref === q.ref) &&
    (q.from === undefined || f.date >= q.from) &&
    (q.to === undefined || f.date <= q.to)
  );
}

/**
 * Applies `adjustments` in order to `flows`. Flows shifted out of `[from, to]` leave the forecast.
 * @returns the adjusted flows (dates sorted) and the FX rates with the scenario's overrides.
 */
export function applyScenario(
  flows: readonly Flow[],
  adjustments: readonly Adjustment[],
  range: { from: string; to: string },
  fx: Readonly<Record<string, FxRate>> = {},
): { flows: Flow[]; fx: Record<string, FxRate> } {
  let out = flows.slice();
  const rates: Record<string, FxRate> = { ...fx };
  for (const a of adjustments) {
    switch (a.type) {
      case "percent": {
        const k = new Decimal(a.percent).div(100).plus(1);
        out = out.map((f) =>
          matches(f, a.filter)
            ? {
                ...f,
                amount: k.times(f.amount).toDecimalPlaces(2).toFixed(),
                p10: k.times(f.p10).toDecimalPlaces(2).toFixed(),
                p90: k.times(f.p90).toDecimalPlaces(2).toFixed(),
                source: f.source,
              }
            : f,
        );
        break;
      }
      case "shift":
        if (!Number.isInteger(a.days) || Math.abs(a.days) > MAX_SHIFT_DAYS)
          throw new RangeError(`shift days must be an integer within ±${MAX_SHIFT_DAYS}`);
        out = out
          .map((f) => (matches(f, a.filter) ? { ...f, date: fromDay(toDay(f.date) + a.days) } : f))
          .filter((f) => f.date >= range.from && f.date <= range.to);
        break;
      case "drop":
        out = out.filter((f) => !matches(f, a.filter));
        break;
      case "add":
        if (a.flow.date >= range.from && a.flow.date <= range.to)
          out.push({ ...a.flow, p10: a.flow.amount, p90: a.flow.amount, source: "scenario" });
        break;
      case "fx":
        rates[a.currency] = { rate: a.rate, date: "scenario" };
        break;
    }
  }
  out.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
  return { flows: out, fx: rates };
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
  const rateOf = (c: string): Decimal | null =>
    c === rc ? new Decimal(1) : args.fx[c] ? new Decimal(args.fx[c].rate) : null;
  // Daily net flow per company|currency.
  const deltas = new Map<string, Decimal[]>();
  const opening = new Map<string, Decimal>();
  const keyOf = (company: string, currency: string) => `${company}|${currency}`;
  const ensure = (k: string) => {
    let d = deltas.get(k);
    if (!d) deltas.set(k, (d = Array.from({ length: n }, () => new Decimal(0))));
    if (!opening.has(k)) opening.set(k, new Decimal(0));
    return d;
  };
  for (const o of args.openings) {
    const k = keyOf(o.company, o.currency);
    ensure(k);
    opening.set(k, (opening.get(k) ?? new Decimal(0)).plus(o.amount));
  }
  for (const f of args.flows) {
    const i = toDay(f.date) - f0;
    if (i < 0 || i >= n) continue;
    const d = ensure(keyOf(f.company, f.currency));
    d[i] = (d[i] ?? new Decimal(0)).plus(f.amount);
  }
  const pathOf = (open: Decimal, d: readonly Decimal[]): Decimal[] => {
    const p: Decimal[] = [];
    let b = open;
    for (const x of d) p.push((b = b.plus(x)));
    return p;
  };
  const lowOf = (open: Decimal, p: readonly Decimal[]): Low => {
    let best = p[0] ?? open;
    let at = 0;
    p.forEach((v, i) => {
      if (v.lessThan(best)) [best, at] = [v, i];
    });
    return { amount: best.toFixed(), date: fromDay(f0 + at) };
  };

  const byCompany: BalanceSummary["byCompany"] = [];
  const cur = new Map<string, { open: Decimal; d: Decimal[] }>();
  const comp = new Map<string, { open: Decimal; p: Decimal[] }>();
  const missing = new Set<string>();
  const zero = () => Array.from({ length: n }, () => new Decimal(0));
  const total = { open: new Decimal(0), p: zero() };
  for (const [k, d] of [...deltas.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [company, currency] = k.split("|") as [string, string];
    const open = opening.get(k) ?? new Decimal(0);
    const p = pathOf(open, d);
    byCompany.push({
      company,
      currency,
      opening: open.toFixed(),
      closing: (p[n - 1] ?? open).toFixed(),
      lowest: lowOf(open, p),
    });
    let c = cur.get(currency);
    if (!c) cur.set(currency, (c = { open: new Decimal(0), d: zero() }));
    c.open = c.open.plus(open);
    d.forEach((x, i) => (c.d[i] = (c.d[i] ?? new Decimal(0)).plus(x)));
    const r = rateOf(currency);
    if (!r) {
      missing.add(currency);
      continue;
    }
    let cp = comp.get(company);
    if (!cp) comp.set(company, (cp = { open: new Decimal(0), p: zero() }));
    cp.open = cp.open.plus(open.times(r));
    p.forEach((v, i) => (cp.p[i] = (cp.p[i] ?? new Decimal(0)).plus(v.times(r))));
    total.open = total.open.plus(open.times(r));
    p.forEach((v, i) => (total.p[i] = (total.p[i] ?? new Decimal(0)).plus(v.times(r))));
  }
  const byCurrency = [...cur.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, c]) => {
      const p = pathOf(c.open, c.d);
      return { currency, opening: c.open.toFixed(), closing: (p[n - 1] ?? c.open).toFixed(), lowest: lowOf(c.open, p) };
    });
  const r2 = (v: Decimal) => v.toDecimalPlaces(2).toFixed(2);
  const low = lowOf(total.open, total.p);
  const breaches: BalanceSummary["breaches"] = [];
  for (const [company, threshold] of Object.entries(args.thresholds ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const cp = comp.get(company);
    if (!cp) continue;
    const t = new Decimal(threshold);
    const first = cp.p.findIndex((v) => v.lessThan(t));
    if (first < 0) continue;
    const l = lowOf(cp.open, cp.p);
    breaches.push({
      company,
      threshold: t.toFixed(),
      lowest: { amount: r2(new Decimal(l.amount)), date: l.date },
      first_breach: fromDay(f0 + first),
    });
  }
  return {
    byCurrency,
    byCompany,
    reporting: {
      currency: rc,
      opening: r2(total.open),
      closing: r2(total.p[n - 1] ?? total.open),
      lowest: { amount: r2(new Decimal(low.amount)), date: low.date },
      missing_rates: [...missing].sort(),
    },
    breaches,
    path: total.p.map((v, i) => ({ date: fromDay(f0 + i), amount: r2(v) })),
  };
}
