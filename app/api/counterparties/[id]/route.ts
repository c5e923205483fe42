import { IdParams, withUser } from "@/lib/bff/route";
import { counterpartyDetail } from "@/lib/bff/queries/counterparties";

/** GET /api/counterparties/{id} — one counterparty of the selected company with its history (oldest first). */
export const GET = withUser({ permission: "counterparties.read", params: IdParams }, (ctx) =>
  counterpartyDetail(ctx, ctx.params.id),
);
