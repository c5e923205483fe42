import { PaymentBatchCreate } from "@treasury/contract";
import { BatchesQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { createBatch } from "@/lib/bff/queries/payments";
import { listBatchRows } from "@/lib/bff/queries/payment-views";
import { BATCH_CREATE_ACTION } from "@/lib/bff/queries/approvals";

/** GET /payments/batches — one page of list rows (creator, approvals; `companies=all` spans the user's companies). */
export const GET = withUser({ permission: "payments.read", query: BatchesQuery }, (ctx) =>
  listBatchRows(ctx, ctx.query),
);

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
