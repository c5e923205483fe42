import { ForecastQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { forecast } from "@/lib/bff/queries/reporting";

/** GET /reporting/forecast */
export const GET = withUser({ permission: "reports.read", query: ForecastQuery }, (ctx) => forecast(ctx, ctx.query));
