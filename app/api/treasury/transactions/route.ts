import { TransactionsQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { listTransactions } from "@/lib/bff/queries/ledger";

/** GET /transactions — the selected company's transactions. */
export const GET = withUser({ permission: "ledger.read", query: TransactionsQuery }, (ctx) =>
  listTransactions(ctx, ctx.query),
);
