import { IdParams, withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** GET /payments/instructions/{id} */
export const GET = withUser({ permission: "payments.read", params: IdParams }, (ctx) =>
  treasury().getInstruction(ctx.read, ctx.params.id),
);
