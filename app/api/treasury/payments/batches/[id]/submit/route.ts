import { IdParams, withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** POST /payments/batches/{id}/submit — 202, the batch now pending approval (treasurer). */
export const POST = withUser(
  {
    permission: "payments.write",
    params: IdParams,
    status: 202,
    audit: { action: "payment_batch.submit", objectType: "payment_batch" },
  },
  async (ctx) => {
    // The spec describes no body for the 202, so the API may send none.
    const batch = await treasury().submitBatch(ctx.write, ctx.params.id);
    return batch ?? { id: ctx.params.id, status: "pending_approval" };
  },
);
