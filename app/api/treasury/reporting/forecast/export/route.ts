import { ReportQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { exportForecast } from "@/lib/bff/queries/exports";

/**
 * GET /reporting/forecast as a streamed CSV: the actual positions of
 * `from_date`..`to_date` leading into the forecast, as the report shows them.
 */
export const GET = withUser({ permission: "reports.read", query: ReportQuery }, (ctx) =>
  exportForecast(ctx, ctx.query),
);
