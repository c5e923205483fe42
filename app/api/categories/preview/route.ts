import { z } from "zod";
import { withUser } from "@/lib/bff/route";
import { previewCategoryRule } from "@/lib/bff/queries/categories";
import { CategoryRuleInput } from "@/lib/categories/rules";
import { Uuid } from "@treasury/contract";

/** `rule_id`: the rule being edited (left out of the existing rules; the tested rule takes its place). */
const PreviewQuery = z.object({ rule_id: Uuid.optional() });

/**
 * POST /api/categories/preview[?rule_id=] with a rule's fields — what it would categorise over the selected
 * company's last 90 days (counts and up to 5 examples; see `CategoryPreview`). Reads only; not audited.
 * 400 naming the field for a bad rule.
 */
export const POST = withUser({ permission: "categories.manage", query: PreviewQuery, body: CategoryRuleInput }, (ctx) =>
  previewCategoryRule(ctx, ctx.body, ctx.query.rule_id),
);
