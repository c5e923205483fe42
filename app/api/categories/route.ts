import { collectionRoutes } from "@/lib/bff/item-routes";
import { addCategoryRule, categoriesView } from "@/lib/bff/queries/categories";
import { CategoryRuleInput } from "@/lib/categories/rules";

const routes = collectionRoutes({
  permission: "categories.manage",
  audit: { objectType: "category_rule", create: "category_rule.create" },
  body: CategoryRuleInput,
  view: () => categoriesView(),
  add: addCategoryRule,
});

/** GET /api/categories — the cashflow category rules in order and the category names (admin). */
export const GET = routes.GET;

/**
 * POST /api/categories — 201: a new rule, appended last (fields: lib/categories/rules.ts `CategoryRuleInput`);
 * 400 naming the field. Audited with the rule as created.
 */
export const POST = routes.POST;
