import { ReportQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { exportForecast } from "@/lib/bff/queries/exports";

/** GET /reporting/forecast as a streamed CSV. */
export const GET = withUser({ permission: "reports.read", query: ReportQuery }, (ctx) => exportForecast(ctx, ctx.query));
