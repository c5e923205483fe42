import { PaymentBatchUpdate } from "@treasury/contract";
import { AUDIT_ACTION } from "@/lib/audit-actions";
import { IdParams, withUser } from "@/lib/bff/route";
import { discardBatch, updateBatch } from "@/lib/bff/queries/payments";
import { treasury } from "@/lib/server/treasury";

/** GET /payments/batches/{id} */
export const GET = withUser({ permission: "payments.read", params: IdParams }, (ctx) =>
  treasury().getBatch(ctx.read, ctx.params.id),
);

/**
 * PATCH — rename, move, repoint or replace the instructions of a batch not yet submitted (treasurer);
 * 409 once submitted or when the API does not offer editing.
 */
export const PATCH = withUser(
  {
    permission: "payments.write",
    params: IdParams,
    body: PaymentBatchUpdate,
    audit: { action: AUDIT_ACTION.batchEdit, objectType: "payment_batch" },
  },
  async (ctx) => {
    const batch = await updateBatch(ctx, ctx.params.id, ctx.body);
    ctx.audit.details = {
      changed: Object.keys(ctx.body).sort(),
      ...(ctx.body.reference !== undefined ? { reference: ctx.body.reference } : {}),
      ...(ctx.body.instructions ? { instruction_count: ctx.body.instructions.length } : {}),
    };
    return batch;
  },
);

/** DELETE — discard a batch not yet submitted (treasurer); 204; 409 once submitted. */
export const DELETE = withUser(
  {
    permission: "payments.write",
    params: IdParams,
    audit: { action: AUDIT_ACTION.batchDiscard, objectType: "payment_batch" },
  },
  async (ctx) => {
    await discardBatch(ctx, ctx.params.id);
    return undefined;
  },
);
