import { AccountTransactionsQuery } from "@/lib/bff/inputs";
import { clientFilters, toBffPage } from "@/lib/bff/queries/page";
import { IdParams, withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** GET /accounts/{id}/transactions */
export const GET = withUser(
  { permission: "ledger.read", params: IdParams, query: AccountTransactionsQuery },
  async (ctx) => toBffPage(await treasury().listAccountTransactions(ctx.read, ctx.params.id, clientFilters(ctx.query))),
);
