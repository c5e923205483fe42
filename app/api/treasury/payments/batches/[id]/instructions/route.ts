import { BatchInstructionsQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { listBatchInstructions } from "@/lib/bff/queries/payments";

/** GET /payments/batches/{id}/instructions (extension) */
export const GET = withUser({ permission: "payments.read", query: BatchInstructionsQuery }, (ctx) =>
  listBatchInstructions(ctx, ctx.params.id ?? "", ctx.query),
);
