import { requirePolicyStepUp } from "@/lib/bff/step-up";
import { z } from "zod";
import { IdParams, withUser } from "@/lib/bff/route";
import { moveRuleTo } from "@/lib/bff/queries/policies";

const MoveBody = z
  .object({ position: z.number({ message: "must be a whole number from 1" }).int("must be a whole number").min(1) })
  .strict();

/**
 * POST /api/policies/{id}/move {position} — moves a rule (1 = first); audited with the order before and after. Needs a
 * passkey step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
 */
export const POST = withUser(
  {
    permission: "policies.manage",
    company: "none",
    params: IdParams,
    body: MoveBody,
    audit: { action: "approval_policy.move", objectType: "approval_policy" },
  },
  async (ctx) => {
    // Passkey step-up, refused and audited before the change.
    await requirePolicyStepUp(ctx, "approval_policy", ctx.params.id);
    const { before, after } = await moveRuleTo(ctx.params.id, ctx.body.position);
    ctx.audit.details = { before: before.map((r) => r.id), after: after.map((r) => r.id) };
    return { rules: after };
  },
);
