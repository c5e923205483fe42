import { requirePolicyStepUp } from "@/lib/bff/step-up";
import { withUser } from "@/lib/bff/route";
import { addRule, policiesView } from "@/lib/bff/queries/policies";
import { RuleInput } from "@/lib/policies/store";

/** GET /api/policies — the approval policy rules in order, the approver groups and candidate members (admin). */
export const GET = withUser({ permission: "policies.manage", company: "none" }, () => policiesView());

/**
 * POST /api/policies — 201: a new rule, appended last (a rule's fields: lib/policies/store.ts `RuleInput`);
 * 400 naming the field. Audited with the rule as created. Needs a passkey step-up for `approval_policy.change`
 * covering `new_rule`: else 403 `step_up_required` (audited).
 */
export const POST = withUser(
  {
    permission: "policies.manage",
    company: "none",
    body: RuleInput,
    knownCompany: true,
    status: 201,
    audit: { action: "approval_policy.create", objectType: "approval_policy" },
  },
  async (ctx) => {
    // Passkey step-up, refused and audited before the change.
    await requirePolicyStepUp(ctx, "approval_policy", "new_rule");
    const rule = await addRule(ctx.body);
    ctx.audit.details = { before: null, after: rule };
    return rule;
  },
);
