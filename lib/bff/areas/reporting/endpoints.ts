/**
 * The reporting area's BFF endpoints (docs/architecture.md#reports): the selected company's daily positions, daily
 * cashflow and forecast, and their CSV exports. Isomorphic: the browser derives its URLs from these
 * (docs/architecture.md#the-bff-declared-per-area).
 */
import { endpoint } from "../../endpoint";

export const reportingEndpoints = {
  positions: endpoint("GET", "/api/treasury/reporting/positions/daily"),
  positionsExport: endpoint("GET", "/api/treasury/reporting/positions/export"),
  cashflow: endpoint("GET", "/api/treasury/reporting/cashflow/daily"),
  cashflowExport: endpoint("GET", "/api/treasury/reporting/cashflow/export"),
  cashflowCategoriesExport: endpoint("GET", "/api/treasury/reporting/cashflow/categories/export"),
  forecast: endpoint("GET", "/api/treasury/reporting/forecast"),
  forecastExport: endpoint("GET", "/api/treasury/reporting/forecast/export"),
};
