import { AccountTransactionsQuery } from "@/lib/bff/inputs";
import { IdParams, withUser } from "@/lib/bff/route";
import { listAccountTransactions } from "@/lib/bff/queries/ledger";

/** GET /accounts/{id}/transactions */
export const GET = withUser({ permission: "ledger.read", params: IdParams, query: AccountTransactionsQuery }, (ctx) =>
  listAccountTransactions(ctx, ctx.params.id, ctx.query),
);
