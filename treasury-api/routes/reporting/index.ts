/** Reporting area: wiring of routes to the report queries (spec §4 Reporting). */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../lib/context";
import { fieldError } from "../../lib/errors";
import { checkDateRange, listBody, resolvePaging } from "../../lib/lists";
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

export function registerReportingRoutes(api: OpenAPIHono<AppEnv>): void {
  const cashflow = async (
    c: Context<AppEnv>,
    q: RangeQuery & { page?: number; page_size?: number; limit?: number },
  ) => {
    const paging = resolvePaging(c, q);
    const { rows, count } = await cashflowDaily(c.get("db"), c.get("scope"), pastRange(q), paging);
    return listBody(c, paging, rows, count);
  };
  const positions = async (
    c: Context<AppEnv>,
    q: RangeQuery & { page?: number; page_size?: number; limit?: number },
  ) => {
    const paging = resolvePaging(c, q);
    const { rows, count } = await positionsDaily(c.get("db"), c.get("scope"), pastRange(q), paging);
    return listBody(c, paging, rows, count);
  };
  api.openapi(r.cashflowDailyRoute, async (c) => c.json(await cashflow(c, c.req.valid("query")), 200));
  api.openapi(r.cashflowAliasRoute, async (c) => c.json(await cashflow(c, c.req.valid("query")), 200));
  api.openapi(r.positionsDailyRoute, async (c) => c.json(await positions(c, c.req.valid("query")), 200));
  api.openapi(r.positionsAliasRoute, async (c) => c.json(await positions(c, c.req.valid("query")), 200));
  api.openapi(r.forecastRoute, async (c) => {
    const q = c.req.valid("query");
    const paging = resolvePaging(c, q);
    const { rows, count } = await forecast(c.get("db"), c.get("scope"), forecastRange(q), paging);
    return c.json(listBody(c, paging, rows, count), 200);
  });
}
