import { itemRoutes } from "@/lib/bff/item-routes";
import { changeAutoRule, removeAutoRule } from "@/lib/bff/queries/auto-rules";
import { AutoRuleInput } from "@/lib/auto-confirm/rules";

const routes = itemRoutes({
  permission: "reconciliation.rules.manage",
  audit: {
    objectType: "reconciliation_rule",
    update: "reconciliation_rule.update",
    delete: "reconciliation_rule.delete",
  },
  body: AutoRuleInput,
  knownCompany: true,
  change: changeAutoRule,
  remove: removeAutoRule,
});

/** PUT /api/reconciliation-rules/{id} — replaces a rule (name, conditions, enabled); audited before / after. */
export const PUT = routes.PUT;

/** DELETE /api/reconciliation-rules/{id} — 204; its past confirmations stay (they name it). Audited. */
export const DELETE = routes.DELETE;
