import { requirePolicyStepUp } from "@/lib/bff/step-up";
import { IdParams, withUser } from "@/lib/bff/route";
import { putGroup, removeGroup } from "@/lib/bff/queries/policies";
import { GroupInput } from "@/lib/policies/store";

/**
 * PUT /api/policies/groups/{id} {name, user_ids} — renames the group and replaces its members; audited. Needs a
 * passkey step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
 */
export const PUT = withUser(
  {
    permission: "policies.manage",
    company: "none",
    params: IdParams,
    body: GroupInput,
    audit: { action: "approver_group.save", objectType: "approver_group" },
  },
  async (ctx) => {
    // Passkey step-up, refused and audited before the change.
    await requirePolicyStepUp(ctx, "approver_group", ctx.params.id);
    const { before, after } = await putGroup(ctx.body, ctx.params.id);
    ctx.audit.details = { before, after };
    return after;
  },
);

/**
 * DELETE /api/policies/groups/{id} — 204; rules naming the group keep its id (no one is eligible through it). Needs a
 * passkey step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
 */
export const DELETE = withUser(
  {
    permission: "policies.manage",
    company: "none",
    params: IdParams,
    audit: { action: "approver_group.delete", objectType: "approver_group" },
  },
  async (ctx) => {
    // Passkey step-up, refused and audited before the change.
    await requirePolicyStepUp(ctx, "approver_group", ctx.params.id);
    const before = await removeGroup(ctx.params.id);
    ctx.audit.details = { before, after: null };
    return undefined;
  },
);
