/** Reporting handlers: daily cashflow and positions over a past range, and the forecast over a future one. */
import { fieldError } from "../../lib/errors";
import { checkDateRange, listHandler } from "../../lib/lists";
import {
  cashflowDaily,
  DEFAULT_REPORT_DAYS,
  daysBetween,
  forecast,
  positionsDaily,
  shiftDate,
  todayUtc,
  type ReportFilter,
} from "../../domain/reporting";
import * as r from "./reporting.routes";

/** Longest forecast range in days. */
const MAX_FORECAST_DAYS = 366;

interface RangeQuery {
  from_date?: string;
  to_date?: string;
  currency?: string;
}

/** Past reports: to_date defaults to today, from_date to 29 days before to_date. */
export function pastRange(q: RangeQuery, today = todayUtc()): ReportFilter {
  checkDateRange(q);
  const toDate = q.to_date ?? today;
  const fromDate = q.from_date ?? shiftDate(toDate, -(DEFAULT_REPORT_DAYS - 1));
  if (fromDate > toDate) throw fieldError("from_date", "must not be after to_date (which defaults to today)");
  return { fromDate, toDate, currency: q.currency };
}

/** Forecast: from_date defaults to tomorrow; to_date to from_date + days − 1 (days default 30). */
export function forecastRange(q: RangeQuery & { days?: number }, today = todayUtc()): ReportFilter & { today: string } {
  checkDateRange(q);
  if (q.days !== undefined && q.to_date !== undefined) throw fieldError("days", "cannot be combined with to_date");
  const fromDate = q.from_date ?? shiftDate(today, 1);
  if (fromDate < today) throw fieldError("from_date", "must not be before today: a forecast covers future dates");
  const toDate = q.to_date ?? shiftDate(fromDate, (q.days ?? DEFAULT_REPORT_DAYS) - 1);
  if (toDate < fromDate) throw fieldError("to_date", "must not be before from_date (which defaults to tomorrow)");
  if (daysBetween(fromDate, toDate) + 1 > MAX_FORECAST_DAYS)
    throw fieldError("to_date", `must be at most ${MAX_FORECAST_DAYS} days after from_date`);
  return { fromDate, toDate, currency: q.currency, today };
}

const cashflowOf = (route: typeof r.cashflowDailyRoute | typeof r.cashflowAliasRoute) =>
  listHandler(route, { load: (c, q, paging) => cashflowDaily(c.get("db"), c.get("scope"), pastRange(q), paging) });

const positionsOf = (route: typeof r.positionsDailyRoute | typeof r.positionsAliasRoute) =>
  listHandler(route, { load: (c, q, paging) => positionsDaily(c.get("db"), c.get("scope"), pastRange(q), paging) });

export const cashflow = cashflowOf(r.cashflowDailyRoute);
export const cashflowAlias = cashflowOf(r.cashflowAliasRoute);
export const positions = positionsOf(r.positionsDailyRoute);
export const positionsAlias = positionsOf(r.positionsAliasRoute);

export const forecastReport = listHandler(r.forecastRoute, {
  load: (c, q, paging) => forecast(c.get("db"), c.get("scope"), forecastRange(q), paging),
});
