import { IdParams, withUser } from "@/lib/bff/route";
import { getBatch } from "@/lib/bff/queries/payments";

/** GET /payments/batches/{id} */
export const GET = withUser({ permission: "payments.read", params: IdParams }, (ctx) => getBatch(ctx, ctx.params.id));
