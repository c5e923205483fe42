import { IdParams, withUser } from "@/lib/bff/route";
import { undoConfirmation, UNDO_CONFIRM_MINUTES } from "@/lib/bff/exact-confirm";

/**
 * POST /api/treasury/reconciliation/matches/{id}/undo-confirm (treasurer) — the review's undo toast: reopens a match
 * the signed-in user confirmed here within the last 15 minutes (back to `proposed`); 404 when they did not confirm
 * it, 409 past the window or when the API cannot reopen. Audited as `reconciliation_match.reopen`.
 * docs/guides/reconciliation.md#exact-matches
 */
export const POST = withUser(
  {
    permission: "reconciliation.write",
    company: "none",
    params: IdParams,
    audit: { action: "reconciliation_match.reopen", objectType: "reconciliation_match" },
  },
  async (ctx) => {
    const r = await undoConfirmation(ctx, ctx.params.id);
    ctx.audit.companyId = r.companyId;
    ctx.audit.details = { undo: "confirmation", confirmed_at: r.confirmedAt, window_minutes: UNDO_CONFIRM_MINUTES };
    return { id: ctx.params.id, state: "proposed", undone: true };
  },
);
