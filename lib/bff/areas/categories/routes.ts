/**
 * The categories area's BFF routes, declared against ./endpoints.ts: the admin's cashflow category rules and the
 * preview of a rule (docs/architecture.md#the-bff-declared-per-area).
 */
import "server-only";
import { z } from "zod";
import { Uuid } from "@treasury/contract";
import { MoveBody } from "@/lib/bff/inputs";
import { collectionRoutes, itemRoutes } from "@/lib/bff/item-routes";
import {
  addCategoryRule,
  categoriesView,
  changeCategoryRule,
  moveCategoryRuleTo,
  previewCategoryRule,
  removeCategoryRule,
} from "@/lib/bff/queries/categories";
import { declareRoute, defineRoutes, IdParams } from "@/lib/bff/route";
import { CategoryRuleInput } from "@/lib/categories/rules";
import { categoriesEndpoints as e } from "./endpoints";

/** `rule_id`: the rule being edited (left out of the existing rules; the tested rule takes its place). */
const PreviewQuery = z.object({ rule_id: Uuid.optional() });

const rules = collectionRoutes(
  { GET: e.list, POST: e.add },
  {
    permission: "categories.manage",
    audit: { objectType: "category_rule", create: "category_rule.create" },
    body: CategoryRuleInput,
    view: () => categoriesView(),
    add: addCategoryRule,
  },
);

const rule = itemRoutes(
  { PUT: e.change, DELETE: e.remove },
  {
    permission: "categories.manage",
    audit: { objectType: "category_rule", update: "category_rule.update", delete: "category_rule.delete" },
    body: CategoryRuleInput,
    change: changeCategoryRule,
    remove: removeCategoryRule,
  },
);

export const categoriesRoutes = defineRoutes(e, {
  /** GET /api/categories — the cashflow category rules in order and the category names (admin). */
  list: rules.GET,

  /**
   * POST /api/categories — 201: a new rule, appended last (fields: lib/categories/rules.ts `CategoryRuleInput`);
   * 400 naming the field. Audited with the rule as created.
   */
  add: rules.POST,

  /** PUT /api/categories/{id} — replaces a rule's conditions and category (position kept); audited before/after. */
  change: rule.PUT,

  /** DELETE /api/categories/{id} — 204; the rules after it move up. Audited with the rule as it was. */
  remove: rule.DELETE,

  /** POST /api/categories/{id}/move {position} — moves a rule (1 = first); audited with the order before and after. */
  move: declareRoute(
    e.move,
    {
      permission: "categories.manage",
      company: "none",
      params: IdParams,
      body: MoveBody,
      audit: { action: "category_rule.move", objectType: "category_rule" },
    },
    async (ctx) => {
      const { before, after } = await moveCategoryRuleTo(ctx.params.id, ctx.body.position);
      ctx.audit.details = { before: before.map((r) => r.id), after: after.map((r) => r.id) };
      return { rules: after };
    },
  ),

  /**
   * POST /api/categories/preview[?rule_id=] with a rule's fields — what it would categorise over the selected
   * company's last 90 days (counts and up to 5 examples; see `CategoryPreview`). Reads only; not audited.
   * 400 naming the field for a bad rule.
   */
  preview: declareRoute(
    e.preview,
    { permission: "categories.manage", query: PreviewQuery, body: CategoryRuleInput },
    (ctx) => previewCategoryRule(ctx, ctx.body, ctx.query.rule_id),
  ),
});
