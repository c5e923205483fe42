import { ReportQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { exportCashflow } from "@/lib/bff/queries/exports";

/** GET /reporting/cashflow/daily as a streamed CSV of the range. */
export const GET = withUser({ permission: "reports.read", query: ReportQuery }, (ctx) =>
  exportCashflow(ctx, ctx.query),
);
