import { IdParams, withUser } from "@/lib/bff/route";
import { getAccount } from "@/lib/bff/queries/ledger";

/** GET /accounts/{id} */
export const GET = withUser({ permission: "ledger.read", params: IdParams }, (ctx) => getAccount(ctx, ctx.params.id));
