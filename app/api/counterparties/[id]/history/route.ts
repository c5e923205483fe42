import { IdParams, withUser } from "@/lib/bff/route";
import { counterpartyDetail } from "@/lib/bff/queries/counterparties";

/**
 * GET /api/counterparties/{id}/history — `{ items }`: every change (old → new IBAN / BIC / status, who, when,
 * why).
 */
export const GET = withUser({ permission: "counterparties.read", params: IdParams }, async (ctx) => ({
  items: (await counterpartyDetail(ctx, ctx.params.id)).history,
}));
