import { IdParams, withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** GET /transactions/{id} */
export const GET = withUser({ permission: "ledger.read", params: IdParams }, (ctx) =>
  treasury().getTransaction(ctx.read, ctx.params.id),
);
