import { IdParams, withUser } from "@/lib/bff/route";
import { JsonObject, changeCounterparty } from "@/lib/bff/queries/counterparties";

/**
 * POST /api/counterparties/{id}/disable — `reason`, `expectedVersion`. Takes
 * the payee out of use (final); needs no second person.
 * 409 on a stale `expectedVersion` or a state that does not allow it; the
 * audit entry is written with the change (same transaction).
 */
export const POST = withUser({ permission: "counterparties.manage", params: IdParams, body: JsonObject }, (ctx) =>
  changeCounterparty(ctx, ctx.params.id, "disable", ctx.body, {
    requestId: ctx.requestId,
    idempotencyKey: ctx.write.idempotencyKey,
  }),
);
