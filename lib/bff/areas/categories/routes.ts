/**
 * The categories area's BFF routes, declared against ./endpoints.ts: the admin's cashflow category rules and the
 * preview of a rule (docs/architecture.md#the-bff-declared-per-area).
 */
import "server-only";
import { z } from "zod";
import { Uuid } from "@treasury/contract";
import {
  addCategoryRule,
  categoriesView,
  changeCategoryRule,
  moveCategoryRuleTo,
  previewCategoryRule,
  removeCategoryRule,
} from "@/lib/bff/queries/categories";
import { declareRoute, defineRoutes } from "@/lib/bff/route";
import { CategoryRuleInput } from "@/lib/categories/rules";
import { adminItems } from "../admin-items";
import { categoriesEndpoints as e } from "./endpoints";

/** `rule_id`: the rule being edited (left out of the existing rules; the tested rule takes its place). */
const PreviewQuery = z.object({ rule_id: Uuid.optional() });

const rules = adminItems(
  e,
  { permission: "categories.manage", objectType: "category_rule", body: CategoryRuleInput },
  {
    view: () => categoriesView(),
    add: addCategoryRule,
    change: changeCategoryRule,
    remove: removeCategoryRule,
    moveTo: moveCategoryRuleTo,
  },
);

export const categoriesRoutes = defineRoutes(e, {
  /** GET /api/categories — the cashflow category rules in order and the category names (admin). */
  list: rules.list,

  /**
   * POST /api/categories — 201: a new rule, appended last (fields: lib/categories/rules.ts `CategoryRuleInput`);
   * 400 naming the field. Audited with the rule as created.
   */
  add: rules.add,

  /** PUT /api/categories/{id} — replaces a rule's conditions and category (position kept); audited before/after. */
  change: rules.change,

  /** DELETE /api/categories/{id} — 204; the rules after it move up. Audited with the rule as it was. */
  remove: rules.remove,

  /** POST /api/categories/{id}/move {position} — moves a rule (1 = first); audited with the order before and after. */
  move: rules.move,

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
