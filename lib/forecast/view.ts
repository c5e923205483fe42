/**
 * The view of a cached base forecast (docs/forecast.md#speed, docs/forecast.md#the-page): what the forecast page and
 * `GET /api/forecast` show — the buckets, the group in the reporting currency, the accuracy in words, the balances
 * of the base case and of up to three scenarios. Pure; no I/O.
 *
 * Building a view sums every flow of the forecast several times (some 365,000 flows for 50 companies), so a view
 * is kept beside the base forecast it came from, keyed by its parameters (granularity, companies, and each
 * scenario's id, version and adjustments): a warm read that repeats one returns the view already built. The views
 * live as long as their base forecast (a WeakMap), which a forecast write or `refresh` replaces.
 */
import type { ForecastEntry } from "@treasury/contract";
import { accuracy, weakSpots, type Accuracy } from "./accuracy";
import type { BacktestResult } from "./backtest";
import { bucket, groupOfFlows, type BucketRow, type Forecast } from "./engine";
import { applyScenario, balances, type BalanceSummary, type FxRate } from "./scenario";
import { groupBuckets, type GroupBucket } from "./sources";
import type { ScenarioRow } from "./store";
import type { Flow } from "./types";
import type { ActualRow } from "./variance";

/** The base forecast of a set of companies, as cached. */
export interface BaseForecast {
  source: "model" | "api";
  as_of: string;
  computed_at: string;
  reporting_currency: string;
  forecast: Forecast;
  openings: { company: string; currency: string; amount: string; date: string }[];
  fx: Record<string, FxRate>;
  thresholds: Record<string, string>;
  /** Companies whose history or batches could not be read (left out). */
  failed_companies: string[];
  /** Companies whose year held more transactions than one read takes (the oldest are missing). */
  truncated_companies: string[];
  /** The spec's forecast rows per company, when `source` is `api`. */
  api_rows: (ForecastEntry & { company: string })[];
  /** The history summed per complete past ISO week, company, currency and category (the variance's actuals). */
  actuals: ActualRow[];
}

/** One scenario's result beside the base case. */
export interface ScenarioResult {
  id: string;
  name: string;
  balances: BalanceSummary;
  /** The rates the scenario used (its own where it sets one). */
  fx: Record<string, FxRate>;
  group: GroupBucket[];
}

/** What the forecast page and `GET /api/forecast` show. */
export interface CashForecastView {
  source: "model" | "api";
  as_of: string;
  computed_at: string;
  from: string;
  to: string;
  weeks: number;
  granularity: "day" | "week";
  reporting_currency: string;
  /** The base forecast's rates (as `rates`, keyed by currency). */
  fx: Record<string, FxRate>;
  /** The rate of each currency to the reporting currency: the latest stored, with its date. */
  rates: { currency: string; rate: string; date: string }[];
  companies: { id: string; name: string }[];
  /** Per company, currency and category. */
  rows: BucketRow[];
  /** The group in the reporting currency. */
  group: GroupBucket[];
  missing_rates: string[];
  /** Known flows: batches and manual lines (the statistical and recurring flows are in `rows`). */
  known: Flow[];
  recurring: Forecast["recurring"];
  accuracy: { all: Accuracy | null; by_category: Accuracy[]; by_company: Accuracy[]; weak: Accuracy[] };
  series: Forecast["series"];
  base: BalanceSummary;
  scenarios: ScenarioResult[];
  failed_companies: string[];
  truncated_companies: string[];
  /** The spec's forecast (position per date and currency, per company) when `source` is `api`. */
  fallback: BaseForecast["api_rows"];
}

/**
 * The view of a base forecast with up to three scenarios (`scenarioIds`, stored ones; unknown ids are ignored):
 * buckets by day or week per company, currency and category, the group in the reporting currency, the known flows,
 * the recurring payees, the accuracy in words, and the balances (lowest and when, breaches) of the base case and
 * each scenario.
 */
function buildView(
  base: BaseForecast,
  companies: readonly { id: string; name: string }[],
  granularity: "day" | "week",
  scenarios: readonly ScenarioRow[],
): CashForecastView {
  const { forecast: f, fx, reporting_currency: rc } = base;
  const rows = bucket(f.flows, f.from, granularity);
  const { buckets, missing } = groupBuckets(rows, rc, fx);
  const weights = Object.fromEntries(Object.entries(fx).map(([c, r]) => [c, Number(r.rate)]));
  const series = f.series.map((s) => ({ ...s, backtest: f.backtests.get(s.key) })).filter((s) => s.backtest);
  const sb = series as { company: string; currency: string; category: string; backtest: BacktestResult }[];
  const [all] = accuracy(sb, "all", weights);
  const byCategory = accuracy(sb, "category", weights);
  const byCompany = accuracy(sb, "company", weights);
  const bal = (flows: readonly Flow[], rates: Record<string, FxRate>) =>
    balances({
      flows,
      openings: base.openings,
      from: f.from,
      to: f.to,
      reportingCurrency: rc,
      fx: rates,
      thresholds: base.thresholds,
    });
  return {
    source: base.source,
    as_of: base.as_of,
    computed_at: base.computed_at,
    from: f.from,
    to: f.to,
    weeks: f.weeks,
    granularity,
    reporting_currency: rc,
    fx,
    rates: Object.entries(fx)
      .map(([currency, r]) => ({ currency, rate: r.rate, date: r.date }))
      .sort((a, b) => (a.currency < b.currency ? -1 : 1)),
    companies: companies.map((c) => ({ id: c.id, name: c.name })),
    rows,
    group: buckets,
    missing_rates: missing,
    known: f.flows.filter((x) => x.source === "batch" || x.source === "manual"),
    recurring: f.recurring,
    accuracy: { all: all ?? null, by_category: byCategory, by_company: byCompany, weak: weakSpots(byCategory) },
    series: f.series,
    base: bal(f.flows, fx),
    scenarios: scenarios.slice(0, 3).map((s) => {
      const adjusted = applyScenario(f.flows, s.adjustments, { from: f.from, to: f.to }, fx);
      return {
        id: s.id,
        name: s.name,
        balances: bal(adjusted.flows, adjusted.fx),
        fx: adjusted.fx,
        // The scenario's group straight from its flows: the page shows no per-company rows of a scenario.
        group: groupOfFlows(adjusted.flows, f.from, granularity, rc, adjusted.fx).buckets,
      };
    }),
    failed_companies: base.failed_companies,
    truncated_companies: base.truncated_companies,
    fallback: base.api_rows,
  };
}

/** Most views kept per base forecast (granularities × scenario sets read since it was computed). */
const VIEWS_PER_BASE = 16;

const views = new WeakMap<BaseForecast, Map<string, CashForecastView>>();

/**
 * The view of `base` for `companies` at `granularity` with up to three `scenarios` (stored ones, in the order
 * given; more are ignored): built once per base forecast and set of parameters, then returned as built. Callers
 * must not modify the returned view (it is shared by every read of the same parameters).
 * @throws as `applyScenario` on an adjustment the scenario inputs would have refused (a stored scenario never has one).
 */
export function forecastView(
  base: BaseForecast,
  companies: readonly { id: string; name: string }[],
  granularity: "day" | "week",
  scenarios: readonly ScenarioRow[],
): CashForecastView {
  const chosen = scenarios.slice(0, 3);
  const key = JSON.stringify([
    granularity,
    companies.map((c) => [c.id, c.name]),
    chosen.map((s) => [s.id, s.name, s.updated_at, s.adjustments]),
  ]);
  let byKey = views.get(base);
  if (!byKey) views.set(base, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit) return hit;
  const view = buildView(base, companies, granularity, chosen);
  if (byKey.size >= VIEWS_PER_BASE) {
    const oldest = byKey.keys().next();
    if (!oldest.done) byKey.delete(oldest.value);
  }
  byKey.set(key, view);
  return view;
}
