import { IdParams, withUser } from "@/lib/bff/route";
import { changeAutoRule, removeAutoRule } from "@/lib/bff/queries/auto-rules";
import { AutoRuleInput } from "@/lib/auto-confirm/rules";

/** PUT /api/reconciliation-rules/{id} — replaces a rule (name, conditions, enabled); audited before / after. */
export const PUT = withUser(
  {
    permission: "reconciliation.rules.manage",
    company: "none",
    params: IdParams,
    body: AutoRuleInput,
    audit: { action: "reconciliation_rule.update", objectType: "reconciliation_rule" },
  },
  async (ctx) => {
    const { before, after } = await changeAutoRule(ctx.params.id, ctx.body);
    ctx.audit.details = { before, after };
    return after;
  },
);

/** DELETE /api/reconciliation-rules/{id} — 204; its past confirmations stay (they name it). Audited. */
export const DELETE = withUser(
  {
    permission: "reconciliation.rules.manage",
    company: "none",
    params: IdParams,
    audit: { action: "reconciliation_rule.delete", objectType: "reconciliation_rule" },
  },
  async (ctx) => {
    const before = await removeAutoRule(ctx.params.id);
    ctx.audit.details = { before, after: null };
    return undefined;
  },
);
