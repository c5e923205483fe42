import { BatchInstructionsQuery } from "@/lib/bff/inputs";
import { IdParams, withUser } from "@/lib/bff/route";
import { listBatchInstructions } from "@/lib/bff/queries/payments";

/** GET /payments/batches/{id}/instructions (extension) */
export const GET = withUser({ permission: "payments.read", params: IdParams, query: BatchInstructionsQuery }, (ctx) =>
  listBatchInstructions(ctx, ctx.params.id, ctx.query),
);
