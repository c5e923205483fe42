import { IdParams, withUser } from "@/lib/bff/route";
import { exportPain001, Pain001Query } from "@/lib/bff/queries/pain001";

/**
 * GET: the batch as an ISO 20022 pain.001 (`?version=pain.001.001.09` default, or pain.001.001.03), an XML attachment.
 * Audited: who downloaded which batch's file, its message id, control sum and debtor account.
 */
export const GET = withUser(
  {
    permission: "payments.read",
    params: IdParams,
    query: Pain001Query,
    audit: { action: "payment_batch.pain001_export", objectType: "payment_batch" },
  },
  (ctx) => exportPain001(ctx, ctx.params.id, ctx.query),
);
