import { withUser } from "@/lib/bff/route";
import { addCategoryRule, categoriesView } from "@/lib/bff/queries/categories";
import { CategoryRuleInput } from "@/lib/categories/rules";

/** GET /api/categories — the cashflow category rules in order and the category names (admin). */
export const GET = withUser({ permission: "categories.manage", company: "none" }, () => categoriesView());

/**
 * POST /api/categories — 201: a new rule, appended last (fields: lib/categories/rules.ts `CategoryRuleInput`);
 * 400 naming the field. Audited with the rule as created.
 */
export const POST = withUser(
  {
    permission: "categories.manage",
    company: "none",
    body: CategoryRuleInput,
    status: 201,
    audit: { action: "category_rule.create", objectType: "category_rule" },
  },
  async (ctx) => {
    const rule = await addCategoryRule(ctx.body);
    ctx.audit.objectId = rule.id;
    ctx.audit.details = { before: null, after: rule };
    return rule;
  },
);
