import { IdParams, withUser } from "@/lib/bff/route";
import { getTransaction } from "@/lib/bff/queries/ledger";

/** GET /transactions/{id} */
export const GET = withUser({ permission: "ledger.read", params: IdParams }, (ctx) =>
  getTransaction(ctx, ctx.params.id),
);
