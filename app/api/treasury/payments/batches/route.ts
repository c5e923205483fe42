import { PaymentBatchCreate } from "@/lib/contract";
import { BatchesQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { createBatch, listBatches } from "@/lib/bff/queries/payments";
import { BATCH_CREATE_ACTION } from "@/lib/bff/queries/approvals";

/** GET /payments/batches */
export const GET = withUser({ permission: "payments.read", query: BatchesQuery }, (ctx) => listBatches(ctx, ctx.query));

/** POST /payments/batches — 201 with the batch (treasurer). */
export const POST = withUser(
  {
    permission: "payments.write",
    company: "body",
    body: PaymentBatchCreate,
    status: 201,
    audit: { action: BATCH_CREATE_ACTION, objectType: "payment_batch" },
  },
  (ctx) => createBatch(ctx, ctx.body),
);
