import { IdParams, withUser } from "@/lib/bff/route";
import { JsonObject, changeCounterparty } from "@/lib/bff/queries/counterparties";

/**
 * POST /api/counterparties/{id}/reject — `reason`, `expectedVersion`; the
 * same maker-checker rule as verify.
 * 409 on a stale `expectedVersion` or a state that does not allow it; the
 * audit entry is written with the change (same transaction).
 */
export const POST = withUser({ permission: "counterparties.verify", params: IdParams, body: JsonObject }, (ctx) =>
  changeCounterparty(ctx, ctx.params.id, "reject", ctx.body, {
    requestId: ctx.requestId,
    idempotencyKey: ctx.write.idempotencyKey,
  }),
);
