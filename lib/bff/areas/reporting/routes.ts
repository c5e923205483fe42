/**
 * The reporting area's BFF routes (docs/architecture.md#reports), declared against ./endpoints.ts: the selected company's
 * reports as pages of the API's answer and as streamed CSV (docs/architecture.md#the-bff-declared-per-area).
 */
import "server-only";
import { ForecastExportQuery, ForecastQuery, ReportQuery } from "@/lib/bff/inputs";
import { exportCashflow, exportCashflowByCategory, exportForecast, exportPositions } from "@/lib/bff/queries/exports";
import { clientFilters, toBffPage } from "@/lib/bff/queries/page";
import { declareRoute, defineRoutes } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";
import { reportingEndpoints as e } from "./endpoints";

export const reportingRoutes = defineRoutes(e, {
  /** GET /reporting/positions/daily */
  positions: declareRoute(e.positions, { permission: "reports.read", query: ReportQuery }, async (ctx) =>
    toBffPage(await treasury().positionsDaily(ctx.read, clientFilters(ctx.query))),
  ),

  /** GET /reporting/positions/daily as a streamed CSV of the range. */
  positionsExport: declareRoute(e.positionsExport, { permission: "reports.read", query: ReportQuery }, (ctx) =>
    exportPositions(ctx, ctx.query),
  ),

  /** GET /reporting/cashflow/daily */
  cashflow: declareRoute(e.cashflow, { permission: "reports.read", query: ReportQuery }, async (ctx) =>
    toBffPage(await treasury().cashflowDaily(ctx.read, clientFilters(ctx.query))),
  ),

  /** GET /reporting/cashflow/daily as a streamed CSV of the range. */
  cashflowExport: declareRoute(e.cashflowExport, { permission: "reports.read", query: ReportQuery }, (ctx) =>
    exportCashflow(ctx, ctx.query),
  ),

  /** GET — the range's cashflow per currency and category as CSV (`Uncategorised` its own category). */
  cashflowCategoriesExport: declareRoute(
    e.cashflowCategoriesExport,
    { permission: "reports.read", query: ReportQuery },
    (ctx) => exportCashflowByCategory(ctx, ctx.query),
  ),

  /** GET /reporting/forecast */
  forecast: declareRoute(e.forecast, { permission: "reports.read", query: ForecastQuery }, async (ctx) =>
    toBffPage(await treasury().forecast(ctx.read, clientFilters(ctx.query))),
  ),

  /**
   * GET /reporting/forecast as a streamed CSV: the actual positions of
   * `from_date`..`to_date` leading into the forecast of the next `horizon` days (7, 30 or 90; default 30), with the
   * breakdown of each forecast day when the API gives one, as the report shows them.
   */
  forecastExport: declareRoute(e.forecastExport, { permission: "reports.read", query: ForecastExportQuery }, (ctx) =>
    exportForecast(ctx, ctx.query),
  ),
});
