import { requirePolicyStepUp } from "@/lib/bff/step-up";
import { IdParams, withUser } from "@/lib/bff/route";
import { changeRule, removeRule } from "@/lib/bff/queries/policies";
import { RuleInput } from "@/lib/policies/store";

/**
 * PUT /api/policies/{id} — replaces a rule's conditions and outcome (its position stays); audited before/after. Needs
 * a passkey step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
 */
export const PUT = withUser(
  {
    permission: "policies.manage",
    company: "none",
    params: IdParams,
    body: RuleInput,
    audit: { action: "approval_policy.update", objectType: "approval_policy" },
  },
  async (ctx) => {
    // Passkey step-up, refused and audited before the change.
    await requirePolicyStepUp(ctx, "approval_policy", ctx.params.id);
    const { before, after } = await changeRule(ctx.params.id, ctx.body);
    ctx.audit.details = { before, after };
    return after;
  },
);

/**
 * DELETE /api/policies/{id} — 204; the rules after it move up. Audited with the rule as it was. Needs a passkey
 * step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
 */
export const DELETE = withUser(
  {
    permission: "policies.manage",
    company: "none",
    params: IdParams,
    audit: { action: "approval_policy.delete", objectType: "approval_policy" },
  },
  async (ctx) => {
    // Passkey step-up, refused and audited before the change.
    await requirePolicyStepUp(ctx, "approval_policy", ctx.params.id);
    const before = await removeRule(ctx.params.id);
    ctx.audit.details = { before, after: null };
    return undefined;
  },
);
