import { IdParams, withUser } from "@/lib/bff/route";
import { changeCategoryRule, removeCategoryRule } from "@/lib/bff/queries/categories";
import { CategoryRuleInput } from "@/lib/categories/rules";

/** PUT /api/categories/{id} — replaces a rule's conditions and category (position kept); audited before/after. */
export const PUT = withUser(
  {
    permission: "categories.manage",
    company: "none",
    params: IdParams,
    body: CategoryRuleInput,
    audit: { action: "category_rule.update", objectType: "category_rule" },
  },
  async (ctx) => {
    const { before, after } = await changeCategoryRule(ctx.params.id, ctx.body);
    ctx.audit.details = { before, after };
    return after;
  },
);

/** DELETE /api/categories/{id} — 204; the rules after it move up. Audited with the rule as it was. */
export const DELETE = withUser(
  {
    permission: "categories.manage",
    company: "none",
    params: IdParams,
    audit: { action: "category_rule.delete", objectType: "category_rule" },
  },
  async (ctx) => {
    const before = await removeCategoryRule(ctx.params.id);
    ctx.audit.details = { before, after: null };
    return undefined;
  },
);
