import { BalancesQuery } from "@/lib/bff/inputs";
import { clientFilters, toBffPage } from "@/lib/bff/queries/page";
import { IdParams, withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** GET /accounts/{id}/balances */
export const GET = withUser({ permission: "ledger.read", params: IdParams, query: BalancesQuery }, async (ctx) =>
  toBffPage(await treasury().listAccountBalances(ctx.read, ctx.params.id, clientFilters(ctx.query))),
);
