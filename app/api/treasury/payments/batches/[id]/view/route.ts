import { IdParams, withUser } from "@/lib/bff/route";
import { getBatchView } from "@/lib/bff/queries/payment-views";

/** GET — the batch page in one read: batch, instructions, status events, approval progress. */
export const GET = withUser({ permission: "payments.read", params: IdParams }, (ctx) =>
  getBatchView(ctx, ctx.params.id),
);
