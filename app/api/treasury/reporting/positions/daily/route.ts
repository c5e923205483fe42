import { ReportQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { positionsDaily } from "@/lib/bff/queries/reporting";

/** GET /reporting/positions/daily */
export const GET = withUser({ permission: "reports.read", query: ReportQuery }, (ctx) =>
  positionsDaily(ctx, ctx.query),
);
