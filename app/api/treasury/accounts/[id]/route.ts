import { IdParams, withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** GET /accounts/{id} */
export const GET = withUser({ permission: "ledger.read", params: IdParams }, (ctx) =>
  treasury().getAccount(ctx.read, ctx.params.id),
);
