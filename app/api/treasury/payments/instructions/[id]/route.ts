import { IdParams, withUser } from "@/lib/bff/route";
import { getInstruction } from "@/lib/bff/queries/payments";

/** GET /payments/instructions/{id} */
export const GET = withUser({ permission: "payments.read", params: IdParams }, (ctx) =>
  getInstruction(ctx, ctx.params.id),
);
