import { IdParams, withUser } from "@/lib/bff/route";
import { submitBatch } from "@/lib/bff/queries/payments";

/** POST /payments/batches/{id}/submit — 202, the batch now pending approval (treasurer). */
export const POST = withUser(
  {
    permission: "payments.write",
    params: IdParams,
    status: 202,
    audit: { action: "payment_batch.submit", objectType: "payment_batch" },
  },
  async (ctx) => {
    const batch = await submitBatch(ctx, ctx.params.id);
    return batch ?? { id: ctx.params.id, status: "pending_approval" };
  },
);
