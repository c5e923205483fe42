import { IdParams, withUser } from "@/lib/bff/route";
import { decideAndStorePolicy } from "@/lib/bff/queries/batch-policy";
import { forgetWaitingCounts } from "@/lib/bff/queries/payment-views";
import { batchWaiting } from "@/lib/notify/events";
import { logger } from "@/lib/server/log";
import { treasury } from "@/lib/server/treasury";

/**
 * POST /payments/batches/{id}/submit — 202, the batch now pending approval (treasurer). The batch's approval
 * policy is decided and stored with it now, so later rule changes do not apply to it; the answer carries its
 * explanation as `policy`. The approvers eligible under it are notified (lib/notify/events.ts). Should storing fail, the policy is decided at the first read instead (logged).
 */
export const POST = withUser(
  {
    permission: "payments.write",
    params: IdParams,
    status: 202,
    audit: { action: "payment_batch.submit", objectType: "payment_batch" },
  },
  async (ctx) => {
    // The spec describes no body for the 202, so the API may send none.
    const submitted = await treasury().submitBatch(ctx.write, ctx.params.id);
    // The approvers' waiting counts in the navigation include it from their next read.
    forgetWaitingCounts();
    const batch =
      submitted ??
      (await treasury()
        .getBatch(ctx.read, ctx.params.id)
        .catch(() => null));
    let policy: { explanation: string; required_count: number } | undefined;
    if (batch) {
      try {
        const p = await decideAndStorePolicy(ctx, batch);
        policy = { explanation: p.explanation, required_count: p.requiredCount };
        ctx.audit.details = { policy: p.explanation, policy_required_count: p.requiredCount };
        // The eligible approvers are told (in-app, and one e-mail each when SMTP is on; docs/users-and-notifications.md).
        await batchWaiting(batch, p, ctx.user.id, ctx.request.nextUrl.origin);
      } catch (err) {
        logger.error({ err, requestId: ctx.requestId, batchId: ctx.params.id }, "approval policy not stored");
      }
    }
    const body = batch ?? { id: ctx.params.id, status: "pending_approval" };
    return policy ? { ...body, policy } : body;
  },
);
