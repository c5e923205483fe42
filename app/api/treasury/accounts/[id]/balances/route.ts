import { BalancesQuery } from "@/lib/bff/inputs";
import { IdParams, withUser } from "@/lib/bff/route";
import { listAccountBalances } from "@/lib/bff/queries/ledger";

/** GET /accounts/{id}/balances */
export const GET = withUser({ permission: "ledger.read", params: IdParams, query: BalancesQuery }, (ctx) =>
  listAccountBalances(ctx, ctx.params.id, ctx.query),
);
