import { ReportQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { cashflowDaily } from "@/lib/bff/queries/reporting";

/** GET /reporting/cashflow/daily */
export const GET = withUser({ permission: "reports.read", query: ReportQuery }, (ctx) => cashflowDaily(ctx, ctx.query));
