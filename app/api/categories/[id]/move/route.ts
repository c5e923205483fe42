import { z } from "zod";
import { IdParams, withUser } from "@/lib/bff/route";
import { moveCategoryRuleTo } from "@/lib/bff/queries/categories";

const MoveBody = z
  .object({ position: z.number({ message: "must be a whole number from 1" }).int("must be a whole number").min(1) })
  .strict();

/** POST /api/categories/{id}/move {position} — moves a rule (1 = first); audited with the order before and after. */
export const POST = withUser(
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
);
