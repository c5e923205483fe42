import { IdParams, withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** GET /payments/batches/{id} */
export const GET = withUser({ permission: "payments.read", params: IdParams }, (ctx) =>
  treasury().getBatch(ctx.read, ctx.params.id),
);
