import { withUser } from "@/lib/bff/route";
import { getGroupCategories } from "@/lib/bff/queries/group-categories";
import { resolveReportingCurrency } from "@/lib/bff/queries/group-reports";
import { GroupReportQuery, rangeOf } from "../reports/[kind]/query";

/**
 * GET /api/group/categories[?from_date&to_date&currency] — the cashflow of the range (default the last 30 days) per
 * category summed across every company the user may see in the reporting currency (the user's, or `currency`), with
 * the per-company breakdown and each (company, category, date, currency) line's original and converted figures.
 * Companies whose reads failed are named in `failedCompanies`. 400 naming `from_date`, `to_date` or `currency` for
 * bad input.
 */
export const GET = withUser({ permission: "reports.read", company: "none", query: GroupReportQuery }, async (ctx) =>
  getGroupCategories(ctx, rangeOf(ctx.query), await resolveReportingCurrency(ctx.user.id, ctx.query.currency)),
);
