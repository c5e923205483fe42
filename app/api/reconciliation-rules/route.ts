import { withUser } from "@/lib/bff/route";
import { addAutoRule, autoRulesView } from "@/lib/bff/queries/auto-rules";
import { AutoRuleInput } from "@/lib/auto-confirm/rules";

/** GET /api/reconciliation-rules — the auto-confirm rules in the order tried, the companies, `can_undo` (admin). */
export const GET = withUser({ permission: "reconciliation.rules.manage", company: "none" }, (ctx) =>
  autoRulesView(ctx),
);

/**
 * POST /api/reconciliation-rules — 201: a new rule (fields: lib/auto-confirm/rules.ts `AutoRuleInput`); 400 naming
 * the field; 409 naming `name` when another rule has it. Audited with the rule as created.
 */
export const POST = withUser(
  {
    permission: "reconciliation.rules.manage",
    company: "none",
    body: AutoRuleInput,
    status: 201,
    audit: { action: "reconciliation_rule.create", objectType: "reconciliation_rule" },
  },
  async (ctx) => {
    const rule = await addAutoRule(ctx.body);
    ctx.audit.objectId = rule.id;
    ctx.audit.details = { before: null, after: rule };
    return rule;
  },
);
