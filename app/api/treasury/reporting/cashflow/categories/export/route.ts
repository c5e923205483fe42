import { ReportQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { exportCashflowByCategory } from "@/lib/bff/queries/exports";

/** GET — the range's cashflow per currency and category as CSV (`Uncategorised` its own category). */
export const GET = withUser({ permission: "reports.read", query: ReportQuery }, (ctx) =>
  exportCashflowByCategory(ctx, ctx.query),
);
