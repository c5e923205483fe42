import { requirePolicyStepUp } from "@/lib/bff/step-up";
import { withUser } from "@/lib/bff/route";
import { putGroup } from "@/lib/bff/queries/policies";
import { GroupInput } from "@/lib/policies/store";

/**
 * POST /api/policies/groups {name, user_ids} — 201: a new approver group; 400 naming the field; audited. Needs a
 * passkey step-up for `approval_policy.change` covering `new_group`: else 403 `step_up_required` (audited).
 */
export const POST = withUser(
  {
    permission: "policies.manage",
    company: "none",
    body: GroupInput,
    status: 201,
    audit: { action: "approver_group.save", objectType: "approver_group" },
  },
  async (ctx) => {
    // Passkey step-up, refused and audited before the change.
    await requirePolicyStepUp(ctx, "approver_group", "new_group");
    const { before, after } = await putGroup(ctx.body);
    ctx.audit.details = { before, after };
    return after;
  },
);
