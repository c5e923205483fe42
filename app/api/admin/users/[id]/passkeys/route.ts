import { AUDIT_ACTION } from "@/lib/audit-actions";
import { BffError } from "@/lib/bff/errors";
import { IdParams, withUser } from "@/lib/bff/route";
import { requireUserStepUp } from "@/lib/bff/user-admin";
import { removeAllPasskeys } from "@/lib/db/passkeys";
import { dashboardDb } from "@/lib/server/db";

/**
 * DELETE /api/admin/users/{id}/passkeys — recovery for a user who lost their device (admin): removes every passkey of
 * the user and ends all their sessions. Audited as `user.passkeys_remove` with the count; `{ removed }`; 404 for an
 * unknown user; 403 `step_up_required` covering the id when the admin's passkey step-up is missing.
 */
export const DELETE = withUser(
  {
    permission: "users.manage",
    company: "none",
    params: IdParams,
    audit: { action: AUDIT_ACTION.userPasskeysRemove, objectType: "user" },
  },
  async (ctx) => {
    await requireUserStepUp(ctx, ctx.params.id);
    const removed = await removeAllPasskeys(await dashboardDb(), ctx.params.id);
    if (removed === null) throw new BffError("not_found", "There is no user with this id.");
    ctx.audit.details = { removed, sessions_ended: true };
    return { id: ctx.params.id, removed };
  },
);
