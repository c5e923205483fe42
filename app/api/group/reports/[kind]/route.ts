import { withUser } from "@/lib/bff/route";
import { getGroupReport, resolveReportingCurrency } from "@/lib/bff/queries/group-reports";
import { GroupReportParams, GroupReportQuery, rangeOf } from "./query";

/**
 * GET /api/group/reports/{cashflow|positions|forecast}[?from_date&to_date&currency] — the report summed across
 * every company the user may see in the reporting currency (the user's, or `currency`), with the per-company
 * breakdown and each upstream row's original and converted figures. Companies whose reads failed are named in
 * `failedCompanies`. 400 naming `kind`, `from_date`, `to_date` or `currency` for bad input.
 */
export const GET = withUser(
  { permission: "reports.read", company: "none", params: GroupReportParams, query: GroupReportQuery },
  async (ctx) =>
    getGroupReport(
      ctx,
      ctx.params.kind,
      rangeOf(ctx.query),
      await resolveReportingCurrency(ctx.user.id, ctx.query.currency),
    ),
);
