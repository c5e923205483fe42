import { IdParams, withUser } from "@/lib/bff/route";
import { undoAutoConfirmation } from "@/lib/bff/queries/auto-rules";

/**
 * POST /api/treasury/reconciliation/matches/{id}/undo-auto-confirm (treasurer) — reopens a match an auto-confirm
 * rule confirmed, within 24 h; 404 when no rule confirmed it, 409 past the window or when the API cannot reopen.
 * Audited as `reconciliation_match.reopen` naming the rule.
 */
export const POST = withUser(
  {
    permission: "reconciliation.write",
    company: "none",
    params: IdParams,
    audit: { action: "reconciliation_match.reopen", objectType: "reconciliation_match" },
  },
  async (ctx) => {
    const { record, companyId } = await undoAutoConfirmation(ctx, ctx.params.id);
    ctx.audit.companyId = companyId;
    ctx.audit.details = { auto_rule: { id: record.ruleId, name: record.ruleName }, confirmed_at: record.confirmedAt };
    return { id: ctx.params.id, state: "proposed", undone: true };
  },
);
