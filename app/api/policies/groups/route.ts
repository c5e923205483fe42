import { AUDIT_ACTION } from "@/lib/audit-actions";
import { requireStepUp } from "@/lib/bff/step-up";
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
    // Passkey step-up (lib/bff/step-up.ts), refused and audited before the change.
    await requireStepUp(ctx, {
      action: "approval_policy.change",
      subjects: ["new_group"],
      refusal: AUDIT_ACTION.approvalPolicyRefused,
      objectType: "approver_group",
    });
    const { before, after } = await putGroup(ctx.body);
    ctx.audit.details = { before, after };
    return after;
  },
);
