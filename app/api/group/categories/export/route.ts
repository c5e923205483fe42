import { withUser } from "@/lib/bff/route";
import { exportGroupCategories } from "@/lib/bff/queries/group-categories";
import { resolveReportingCurrency } from "@/lib/bff/queries/group-reports";
import { GroupReportQuery, rangeOf } from "../../reports/[kind]/query";

/**
 * GET /api/group/categories/export — the group cashflow by category as CSV: one line per (company, category, booking
 * date, currency) with its original figures, the rate used and its date, and the converted figures (same query as
 * /api/group/categories).
 */
export const GET = withUser({ permission: "reports.read", company: "none", query: GroupReportQuery }, async (ctx) =>
  exportGroupCategories(ctx, rangeOf(ctx.query), await resolveReportingCurrency(ctx.user.id, ctx.query.currency)),
);
