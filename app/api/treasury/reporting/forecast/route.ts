import { ForecastQuery } from "@/lib/bff/inputs";
import { clientFilters, toBffPage } from "@/lib/bff/queries/page";
import { withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** GET /reporting/forecast */
export const GET = withUser({ permission: "reports.read", query: ForecastQuery }, async (ctx) =>
  toBffPage(await treasury().forecast(ctx.read, clientFilters(ctx.query))),
);
