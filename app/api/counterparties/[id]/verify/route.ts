import { AUDIT_ACTION } from "@/lib/audit-actions";
import { requireStepUp } from "@/lib/bff/step-up";
import { IdParams, withUser } from "@/lib/bff/route";
import { JsonObject, changeCounterparty } from "@/lib/bff/queries/counterparties";

/**
 * POST /api/counterparties/{id}/verify — `reason`, `expectedVersion`. Only a
 * second person: the maker (creator of a never-verified counterparty, or the
 * last one to change its bank details) gets 403 with `details.reason:
 * "maker_checker"`, also when calling this route directly, and the refusal is
 * audited. Needs a passkey step-up for this counterparty (403 `step_up_required`, audited; lib/bff/step-up.ts).
 * 409 on a stale `expectedVersion` or a state that does not allow it; the
 * audit entry is written with the change (same transaction).
 */
export const POST = withUser(
  { permission: "counterparties.verify", params: IdParams, body: JsonObject },
  async (ctx) => {
    // Passkey step-up (lib/bff/step-up.ts), refused and audited before the decision.
    await requireStepUp(ctx, {
      action: "counterparty.verify",
      subjects: [ctx.params.id],
      refusal: AUDIT_ACTION.counterpartyRefused,
      objectType: "counterparty",
      companyId: ctx.company?.id ?? null,
    });
    return changeCounterparty(ctx, ctx.params.id, "verify", ctx.body, {
      requestId: ctx.requestId,
      idempotencyKey: ctx.write.idempotencyKey,
    });
  },
);
