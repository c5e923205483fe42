import { ReportQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { exportPositions } from "@/lib/bff/queries/exports";

/** GET /reporting/positions/daily as a streamed CSV of the range. */
export const GET = withUser({ permission: "reports.read", query: ReportQuery }, (ctx) =>
  exportPositions(ctx, ctx.query),
);
