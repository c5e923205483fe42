import { BatchInstructionsQuery } from "@/lib/bff/inputs";
import { clientFilters, toBffPage } from "@/lib/bff/queries/page";
import { IdParams, withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** GET /payments/batches/{id}/instructions (extension) */
export const GET = withUser(
  { permission: "payments.read", params: IdParams, query: BatchInstructionsQuery },
  async (ctx) => toBffPage(await treasury().listBatchInstructions(ctx.read, ctx.params.id, clientFilters(ctx.query))),
);
