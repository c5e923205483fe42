import { ForecastExportQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { exportForecast } from "@/lib/bff/queries/exports";

/**
 * GET /reporting/forecast as a streamed CSV: the actual positions of
 * `from_date`..`to_date` leading into the forecast of the next `horizon` days (7, 30 or 90; default 30), with the
 * breakdown of each forecast day when the API gives one, as the report shows them.
 */
export const GET = withUser({ permission: "reports.read", query: ForecastExportQuery }, (ctx) =>
  exportForecast(ctx, ctx.query),
);
