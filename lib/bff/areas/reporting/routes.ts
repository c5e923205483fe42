/**
 * The reporting area's BFF routes (docs/architecture.md#reports), declared against ./endpoints.ts: the selected company's
 * reports as pages of the API's answer and as streamed CSV (docs/architecture.md#the-bff-declared-per-area).
 */
import "server-only";
import { ForecastExportQuery, ForecastQuery, ReportQuery } from "@/lib/bff/inputs";
import { exportCashflow, exportCashflowByCategory, exportForecast, exportPositions } from "@/lib/bff/queries/exports";
import { defineRoutes } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";
import { apiPage, readByQuery, type ReadAccess } from "../read-routes";
import { reportingEndpoints as e } from "./endpoints";

/** Every report: the selected company's (`reports.read`). */
const read: ReadAccess = { permission: "reports.read" };
/** A daily report's range (`ReportQuery`). */
const report = { ...read, query: ReportQuery };

export const reportingRoutes = defineRoutes(e, {
  /** GET /reporting/positions/daily */
  positions: apiPage(e.positions, report, (r, f) => treasury().positionsDaily(r, f)),

  /** GET /reporting/positions/daily as a streamed CSV of the range. */
  positionsExport: readByQuery(e.positionsExport, report, exportPositions),

  /** GET /reporting/cashflow/daily */
  cashflow: apiPage(e.cashflow, report, (r, f) => treasury().cashflowDaily(r, f)),

  /** GET /reporting/cashflow/daily as a streamed CSV of the range. */
  cashflowExport: readByQuery(e.cashflowExport, report, exportCashflow),

  /** GET — the range's cashflow per currency and category as CSV (`Uncategorised` its own category). */
  cashflowCategoriesExport: readByQuery(e.cashflowCategoriesExport, report, exportCashflowByCategory),

  /** GET /reporting/forecast */
  forecast: apiPage(e.forecast, { ...read, query: ForecastQuery }, (r, f) => treasury().forecast(r, f)),

  /**
   * GET /reporting/forecast as a streamed CSV: the actual positions of
   * `from_date`..`to_date` leading into the forecast of the next `horizon` days (7, 30 or 90; default 30), with the
   * breakdown of each forecast day when the API gives one, as the report shows them.
   */
  forecastExport: readByQuery(e.forecastExport, { ...read, query: ForecastExportQuery }, exportForecast),
});
