import { IdParams, withUser } from "@/lib/bff/route";
import { getBatchView } from "@/lib/bff/queries/payment-views";

/** GET — the batch page in one read: batch, instructions, status events, approval progress (issue 6 §2). */
export const GET = withUser({ permission: "payments.read", params: IdParams }, (ctx) =>
  getBatchView(ctx, ctx.params.id),
);
