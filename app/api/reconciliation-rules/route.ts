import { collectionRoutes } from "@/lib/bff/item-routes";
import { addAutoRule, autoRulesView } from "@/lib/bff/queries/auto-rules";
import { AutoRuleInput } from "@/lib/auto-confirm/rules";

const routes = collectionRoutes({
  permission: "reconciliation.rules.manage",
  audit: { objectType: "reconciliation_rule", create: "reconciliation_rule.create" },
  body: AutoRuleInput,
  knownCompany: true,
  view: autoRulesView,
  add: addAutoRule,
});

/** GET /api/reconciliation-rules — the auto-confirm rules in the order tried, the companies, `can_undo` (admin). */
export const GET = routes.GET;

/**
 * POST /api/reconciliation-rules — 201: a new rule (fields: lib/auto-confirm/rules.ts `AutoRuleInput`); 400 naming
 * the field; 409 naming `name` when another rule has it. Audited with the rule as created.
 */
export const POST = routes.POST;
