import { AUDIT_ACTION } from "@/lib/audit-actions";
import { appendAudit } from "@/lib/db/audit";
import { IdParams, withUser } from "@/lib/bff/route";
import { requireUserStepUp, userAdminCall } from "@/lib/bff/user-admin";
import { changeUser, UserChange } from "@/lib/db/user-admin";
import { dashboardDb } from "@/lib/server/db";

/**
 * PATCH /api/admin/users/{id} — changes a user's name, roles, companies or enabled state (admin): body any of
 * `{ name, roles, company_ids, disabled }`; `{ before, after }`. A change of roles, companies or state ends the
 * user's sessions; disabling revokes their open invitation. 400 naming `roles` for one's own admin role, `disabled`
 * for disabling oneself; 409 when no enabled admin would remain; 404 for an unknown user; 403 `step_up_required`
 * covering the id. Audited as `user.update`, `user.disable` or `user.enable` with before and after
 * (docs/users-and-notifications.md#users-in-the-browser).
 */
export const PATCH = withUser(
  { permission: "users.manage", company: "none", params: IdParams, body: UserChange },
  async (ctx) => {
    await requireUserStepUp(ctx, ctx.params.id);
    const db = await dashboardDb();
    const { before, after } = await userAdminCall(() => changeUser(db, ctx.user.id, ctx.params.id, ctx.body));
    const action =
      before.disabled === after.disabled
        ? AUDIT_ACTION.userUpdate
        : after.disabled
          ? AUDIT_ACTION.userDisable
          : AUDIT_ACTION.userEnable;
    // Audited here rather than by the wrapper: the action depends on what changed.
    await appendAudit(db, {
      userId: ctx.user.id,
      userEmail: ctx.user.email,
      action,
      objectType: "user",
      objectId: ctx.params.id,
      companyId: null,
      idempotencyKey: ctx.write.idempotencyKey,
      outcome: "success",
      requestId: ctx.requestId,
      details: { before, after },
    });
    return { before, after };
  },
);
