import { CoverageQuery } from "@/lib/bff/inputs";
import { clientFilters, toBffPage } from "@/lib/bff/queries/page";
import { IdParams, withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** GET /accounts/{id}/coverage */
export const GET = withUser({ permission: "ledger.read", params: IdParams, query: CoverageQuery }, async (ctx) =>
  toBffPage(await treasury().listAccountCoverage(ctx.read, ctx.params.id, clientFilters(ctx.query))),
);
