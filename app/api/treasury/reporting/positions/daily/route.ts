import { ReportQuery } from "@/lib/bff/inputs";
import { clientFilters, toBffPage } from "@/lib/bff/queries/page";
import { withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** GET /reporting/positions/daily */
export const GET = withUser({ permission: "reports.read", query: ReportQuery }, async (ctx) =>
  toBffPage(await treasury().positionsDaily(ctx.read, clientFilters(ctx.query))),
);
