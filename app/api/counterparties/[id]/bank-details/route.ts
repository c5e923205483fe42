import { IdParams, withUser } from "@/lib/bff/route";
import { JsonObject, changeCounterparty } from "@/lib/bff/queries/counterparties";

/**
 * POST /api/counterparties/{id}/bank-details — new IBAN and / or BIC (`iban`, `bic`, `reason`,
 * `expectedVersion`). The counterparty goes back to `pending_verification`;
 * the history keeps the old and new details; the person who changed them
 * cannot verify the change.
 * 409 on a stale `expectedVersion` or a state that does not allow it; the
 * audit entry is written with the change (same transaction).
 */
export const POST = withUser({ permission: "counterparties.manage", params: IdParams, body: JsonObject }, (ctx) =>
  changeCounterparty(ctx, ctx.params.id, "bank_details", ctx.body, {
    requestId: ctx.requestId,
    idempotencyKey: ctx.write.idempotencyKey,
  }),
);
