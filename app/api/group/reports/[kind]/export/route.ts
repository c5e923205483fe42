import { withUser } from "@/lib/bff/route";
import { exportGroupReport, resolveReportingCurrency } from "@/lib/bff/queries/group-reports";
import { GroupReportParams, GroupReportQuery, rangeOf } from "../query";

/**
 * GET /api/group/reports/{kind}/export — the group report as CSV: one line per upstream row with its original
 * figures, the rate used and its date, and the converted figures (same query as the report route).
 */
export const GET = withUser(
  { permission: "reports.read", company: "none", params: GroupReportParams, query: GroupReportQuery },
  async (ctx) =>
    exportGroupReport(
      ctx,
      ctx.params.kind,
      rangeOf(ctx.query),
      await resolveReportingCurrency(ctx.user.id, ctx.query.currency),
    ),
);
