import { withUser } from "@/lib/bff/route";
import { AUDIT_ACTION } from "@/lib/audit-actions";
import { ManualMatchBody, createManualMatch } from "@/lib/bff/queries/unmatched";

/**
 * POST { instruction_id, transaction_id, company_id, note? } → 201 the confirmed match (treasurer). Logged as a
 * confirmation of the match (details.manual, the two sides and the note as the reason), which the decided tab reads.
 */
export const POST = withUser(
  {
    permission: "reconciliation.write",
    company: "none",
    body: ManualMatchBody,
    status: 201,
    audit: { action: AUDIT_ACTION.matchConfirm, objectType: "reconciliation_match" },
  },
  async (ctx) => {
    const match = await createManualMatch(ctx, ctx.body);
    ctx.audit.companyId = match.company_id ?? ctx.body.company_id;
    ctx.audit.details = {
      manual: true,
      instruction_id: ctx.body.instruction_id,
      transaction_id: ctx.body.transaction_id,
      ...(ctx.body.note ? { reason: ctx.body.note } : {}),
    };
    return match;
  },
);
