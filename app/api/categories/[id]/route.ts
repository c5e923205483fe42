import { itemRoutes } from "@/lib/bff/item-routes";
import { changeCategoryRule, removeCategoryRule } from "@/lib/bff/queries/categories";
import { CategoryRuleInput } from "@/lib/categories/rules";

const routes = itemRoutes({
  permission: "categories.manage",
  audit: { objectType: "category_rule", update: "category_rule.update", delete: "category_rule.delete" },
  body: CategoryRuleInput,
  change: changeCategoryRule,
  remove: removeCategoryRule,
});

/** PUT /api/categories/{id} — replaces a rule's conditions and category (position kept); audited before/after. */
export const PUT = routes.PUT;

/** DELETE /api/categories/{id} — 204; the rules after it move up. Audited with the rule as it was. */
export const DELETE = routes.DELETE;
