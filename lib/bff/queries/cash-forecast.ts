/**
 * The cash forecast on real data (docs/forecast.md#where-the-data-comes-from): for every company the user may see,
 * the last year of booked transactions (categorised by the cashflow category rules), the approved and pending
 * payment batches and the latest positions, read through the dashboard's Treasury client as background reads;
 * the manual lines, switched-off payees and thresholds from the dashboard DB; the latest stored FX rates. The
 * model (lib/forecast) runs on them. When no company's history can be read (or there is none), the spec's
 * `GET /reporting/forecast` is the fallback and the view says so (`source: "api"`).
 *
 * Computed forecasts are cached per set of companies, horizon and reporting currency ({@link TtlCache}, 24 h);
 * a forecast write (manual line, scenario, setting) or `refresh` drops them; the nightly job (lib/bff/
 * forecast-schedule.ts) drops the model choices too and recomputes what was read the day before. Scenarios are
 * applied to the cached base forecast, and the view built from it is kept beside it per set of parameters
 * (lib/forecast/view.ts): a warm read that repeats one returns it.
 */
import "server-only";
import type { Company } from "@treasury/contract";
import { addDaysIso, todayUtc } from "../../dates";
import { latestRatesBefore } from "../../fx/store";
import type { BacktestResult } from "../../forecast/backtest";
import { buildForecast, type Forecast } from "../../forecast/engine";
import { historyColumns } from "../../forecast/history-columns";
import { ratesToReporting, toHistory, toKnownBatches, toOpenings } from "../../forecast/sources";
import { forecastView, type BaseForecast, type CashForecastView } from "../../forecast/view";
import { listManualLines, listScenarios, listSnapshots, readSettings, saveSnapshots } from "../../forecast/store";
import type { Flow, HistoryTxn, KnownBatch } from "../../forecast/types";
import { fromDay, toDay, weekday } from "../../forecast/days";
import {
  actualWeeks,
  isoWeek,
  snapshotRows,
  variance,
  weekStart,
  type Snapshot,
  type Variance,
} from "../../forecast/variance";
import { dashboardDb } from "../../server/db";
import { logger } from "../../server/log";
import { treasury } from "../../server/treasury";
import { collectAll } from "../../treasury-client";
import { background, type BffContext } from "../context";
import { TtlCache } from "../ttl-cache";
import { categoryRules, readTransactionRange } from "./categories";
import { GROUP_REPORT_CONCURRENCY } from "./group-reports";
import { mapLimit } from "./map-limit";

/** Days of history read per company (a year: weekly and monthly patterns, quarterly ones 4 times). */
export const HISTORY_DAYS = 364;

export { forecastView, type BaseForecast, type CashForecastView, type ScenarioResult } from "../../forecast/view";

const cache = new TtlCache<BaseForecast>({ ttlMs: 24 * 3600_000, maxEntries: 200 });
/** Model choices by `company|currency|category`, kept until the nightly job drops them. */
const backtests = new Map<string, BacktestResult>();
/** The inputs of the forecasts read since the last nightly run, to recompute them at night. */
const recent = new Map<string, { companies: Company[]; weeks: number; reporting: string }>();

function cacheKey(companies: readonly Company[], weeks: number, reporting: string): string {
  return `forecast:${companies
    .map((c) => c.id)
    .sort()
    .join(",")}|${weeks}|${reporting}`;
}

/** Drops every cached forecast (after a manual line, scenario or setting changed). */
export function dropForecastCache(): void {
  cache.dropPrefix("forecast:");
}

/** What the forecast reads of the companies through the Treasury API. */
interface UpstreamInputs {
  history: HistoryTxn[];
  batches: KnownBatch[];
  openings: BaseForecast["openings"];
  /** Names of the companies whose reads failed (left out). */
  failed: string[];
  /** Names of the companies whose history was cut by the read bound. */
  truncated: string[];
}

/**
 * Reads each company's booked transactions from `from` to `asOf` (categorised with `rules`), its payment batches
 * (those executing from the day after `asOf`) and its positions of the last 31 days, as background reads at most
 * `GROUP_REPORT_CONCURRENCY` companies at once (docs/forecast.md#where-the-data-comes-from). A company whose read
 * fails is logged and named in `failed`; the others are still read.
 */
async function readUpstream(
  companies: readonly Company[],
  asOf: string,
  from: string,
  rules: Awaited<ReturnType<typeof categoryRules>>,
  requestId: string,
): Promise<UpstreamInputs> {
  const nextDay = addDaysIso(asOf, 1);
  const out: UpstreamInputs = { history: [], batches: [], openings: [], failed: [], truncated: [] };
  await mapLimit(companies, GROUP_REPORT_CONCURRENCY, async (c) => {
    const call = background({ companyId: c.id, requestId });
    try {
      const [tx, bs, pos] = await Promise.all([
        readTransactionRange(call, from, asOf),
        collectAll(treasury().listBatches(call, { pageSize: 500 }), { maxPages: 20 }),
        collectAll(
          treasury().positionsDaily(call, { pageSize: 1000, from_date: addDaysIso(asOf, -31), to_date: asOf }),
          {
            maxPages: 5,
          },
        ),
      ]);
      if (tx.truncated) out.truncated.push(c.name);
      out.history.push(...toHistory(c.id, tx.txs, rules));
      out.batches.push(...toKnownBatches(c.id, bs, nextDay));
      out.openings.push(...toOpenings(c.id, pos));
    } catch (err) {
      logger.warn({ err: err instanceof Error ? err.message : String(err), company: c.id }, "forecast read failed");
      out.failed.push(c.name);
    }
  });
  return out;
}

/**
 * The spec's forecast (`GET /reporting/forecast`: same-weekday average minus outgoing batches) of each company
 * for `weeks` weeks, the fallback when there is no history to model. A company whose read fails is added to
 * `failed` (once) and left out.
 */
async function apiForecastRows(
  companies: readonly Company[],
  weeks: number,
  requestId: string,
  failed: string[],
): Promise<BaseForecast["api_rows"]> {
  const apiRows: BaseForecast["api_rows"] = [];
  await mapLimit(companies, GROUP_REPORT_CONCURRENCY, async (c) => {
    const call = background({ companyId: c.id, requestId });
    try {
      const rows = await collectAll(treasury().forecast(call, { pageSize: 1000, days: weeks * 7 }), { maxPages: 5 });
      apiRows.push(...rows.map((r) => ({ ...r, company: c.id })));
    } catch {
      if (!failed.includes(c.name)) failed.push(c.name);
    }
  });
  return apiRows;
}

/**
 * Computes the base forecast of `companies` from the Treasury API and the dashboard DB.
 * @throws as the DB reads do; a company's failed upstream read leaves it out (named in `failed_companies`).
 */
export async function computeBaseForecast(
  companies: readonly Company[],
  weeks: number,
  reporting: string,
  requestId: string,
): Promise<BaseForecast> {
  const asOf = todayUtc();
  const from = addDaysIso(asOf, -(HISTORY_DAYS - 1));
  const [db, rules] = await Promise.all([dashboardDb(), categoryRules()]);
  const [lines, settings] = await Promise.all([listManualLines(db), readSettings(db)]);
  const visible = new Set(companies.map((c) => c.id));
  const { history, batches, openings, failed, truncated } = await readUpstream(companies, asOf, from, rules, requestId);
  const manual = lines.filter((l) => visible.has(l.company_id));
  const thresholds = Object.fromEntries(Object.entries(settings.thresholds).filter(([c]) => visible.has(c)));
  const currencies = new Set<string>([reporting]);
  for (const x of [...history, ...batches, ...manual, ...openings]) currencies.add(x.currency);
  const eurRates = await latestRatesBefore(db, {
    quotes: [...currencies].filter((c) => c !== "EUR"),
    date: addDaysIso(asOf, 1),
  });
  const fx = ratesToReporting(reporting, [...currencies], eurRates);

  // No history to model: the spec's forecast (same-weekday average minus outgoing batches) per company.
  const source: BaseForecast["source"] = history.length === 0 ? "api" : "model";
  const apiRows = source === "api" ? await apiForecastRows(companies, weeks, requestId, failed) : [];
  // The history's dates and amounts parsed once for the engine and the actuals (docs/forecast.md#speed).
  const columns = historyColumns(history);
  const forecast = buildForecast({
    asOf,
    weeks,
    history,
    historyColumns: columns,
    batches,
    manualLines: manual,
    disabledRecurring: settings.recurringOff,
    backtests,
  });
  for (const [k, v] of forecast.backtests) backtests.set(k, v);
  if (source === "model") {
    const failedNames = new Set(failed);
    const read = companies.filter((c) => !failedNames.has(c.name)).map((c) => c.id);
    await snapshotForecast(db, read, asOf, forecast);
  }
  return {
    source,
    as_of: asOf,
    computed_at: new Date().toISOString(),
    reporting_currency: reporting,
    forecast,
    openings,
    fx,
    thresholds,
    failed_companies: failed.sort(),
    truncated_companies: truncated.sort(),
    api_rows: apiRows,
    actuals: actualWeeks(history, asOf, columns),
  };
}

/**
 * Keeps the forecast of each company read as this ISO week's snapshot (docs/forecast.md#variance), unless the week
 * already has one for that company; nothing when the horizon holds no complete ISO week. A failed write is logged,
 * never fatal to the forecast.
 */
async function snapshotForecast(
  db: Awaited<ReturnType<typeof dashboardDb>>,
  companyIds: readonly string[],
  asOf: string,
  forecast: Forecast,
): Promise<void> {
  const next = toDay(asOf) + 1;
  const monday = next + ((7 - weekday(next)) % 7);
  if (monday + 6 > toDay(forecast.to) || companyIds.length === 0) return;
  const byCompany = new Map<string, Flow[]>(companyIds.map((id) => [id, []]));
  for (const f of forecast.flows) byCompany.get(f.company)?.push(f);
  const week = isoWeek(asOf);
  const snapshots: Snapshot[] = [...byCompany].map(([company, flows]) => ({
    iso_week: week,
    company,
    as_of: asOf,
    forecast_to: forecast.to,
    rows: snapshotRows(flows, asOf, forecast.to),
  }));
  try {
    const n = await saveSnapshots(db, snapshots);
    if (n > 0) logger.info({ week, companies: n }, "forecast snapshot taken");
  } catch (err) {
    logger.warn({ err: err instanceof Error ? err.message : String(err), week }, "forecast snapshot failed");
  }
}

/** The cached base forecast of the user's companies (computed when missing, or always with `refresh`). */
export async function baseForecast(
  ctx: BffContext,
  weeks: number,
  reporting: string,
  refresh = false,
): Promise<BaseForecast> {
  const key = cacheKey(ctx.companies, weeks, reporting);
  if (refresh) cache.dropPrefix(key);
  recent.set(key, { companies: ctx.companies, weeks, reporting });
  return cache.get(key, () => computeBaseForecast(ctx.companies, weeks, reporting, ctx.requestId));
}

/** The forecast view of the signed-in user (`GET /api/forecast`, the forecast page). */
export async function getCashForecast(
  ctx: BffContext,
  q: { weeks: number; granularity: "day" | "week"; scenarios: string[]; refresh?: boolean },
  reporting: string,
): Promise<CashForecastView> {
  const [base, stored] = await Promise.all([
    baseForecast(ctx, q.weeks, reporting, q.refresh),
    listScenarios(await dashboardDb()),
  ]);
  const chosen = q.scenarios.flatMap((id) => stored.filter((s) => s.id === id));
  return forecastView(base, ctx.companies, q.granularity, chosen);
}

/**
 * The nightly run: drops the model choices and cached forecasts, then recomputes the forecasts read since the
 * last run (so the first page view of the day is warm). @returns how many were recomputed.
 */
export async function nightlyForecastRun(): Promise<number> {
  backtests.clear();
  dropForecastCache();
  const todo = [...recent.entries()];
  recent.clear();
  let n = 0;
  for (const [key, r] of todo) {
    recent.set(key, r);
    await cache.get(key, () =>
      computeBaseForecast(r.companies, r.weeks, r.reporting, `forecast-nightly-${Date.now()}`),
    );
    n++;
  }
  return n;
}

/** What `GET /api/forecast/variance` and the page's variance table show (docs/forecast.md#variance). */
export type ForecastVarianceView = Variance & {
  source: BaseForecast["source"];
  as_of: string;
  /** Snapshots of the user's companies kept so far. */
  snapshots: number;
  /** The rates used, with their dates (the latest stored, as in the forecast). */
  rates: CashForecastView["rates"];
};

/**
 * The variance of the user's companies over the last `weeks` complete ISO weeks (optionally one `category`): the
 * stored snapshots against the actuals of the (cached) base forecast's history, in `reporting`.
 */
export async function getForecastVariance(
  ctx: BffContext,
  q: { weeks: number; category?: string | null },
  reporting: string,
): Promise<ForecastVarianceView> {
  const base = await baseForecast(ctx, 13, reporting);
  const ids = ctx.companies.map((c) => c.id);
  // A snapshot covers at most 26 weeks: older ones cannot reach the window.
  const since = fromDay(toDay(weekStart(base.as_of)) - (q.weeks + 27) * 7);
  const snapshots = await listSnapshots(await dashboardDb(), ids, since);
  const v = variance({
    asOf: base.as_of,
    weeks: q.weeks,
    snapshots,
    actuals: base.actuals,
    companies: ids,
    reporting,
    fx: base.fx,
    category: q.category ?? null,
  });
  return {
    ...v,
    source: base.source,
    as_of: base.as_of,
    snapshots: snapshots.length,
    rates: Object.entries(base.fx)
      .map(([currency, r]) => ({ currency, rate: r.rate, date: r.date }))
      .sort((a, b) => (a.currency < b.currency ? -1 : 1)),
  };
}
