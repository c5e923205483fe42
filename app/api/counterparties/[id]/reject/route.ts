import { AUDIT_ACTION } from "@/lib/audit-actions";
import { requireStepUp } from "@/lib/bff/step-up";
import { IdParams, withUser } from "@/lib/bff/route";
import { JsonObject, changeCounterparty } from "@/lib/bff/queries/counterparties";

/**
 * POST /api/counterparties/{id}/reject — `reason`, `expectedVersion`; the
 * same maker-checker rule as verify.
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
    return changeCounterparty(ctx, ctx.params.id, "reject", ctx.body, {
      requestId: ctx.requestId,
      idempotencyKey: ctx.write.idempotencyKey,
    });
  },
);
