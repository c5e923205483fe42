import { AUDIT_ACTION } from "@/lib/audit-actions";
import { IdParams, withUser } from "@/lib/bff/route";
import {
  invitationMailer,
  invitationUrl,
  requireUserStepUp,
  sendQueuedMail,
  userAdminCall,
} from "@/lib/bff/user-admin";
import { resetPassword } from "@/lib/db/user-admin";
import { dashboardDb } from "@/lib/server/db";

/**
 * POST /api/admin/users/{id}/password-reset — the user's password stops working, their sessions end and a new link
 * (72 h, single use, bound to their e-mail) is issued: `{ user, invitation_url, expires_at }`. 404 unknown user, 409
 * disabled user, 403 `step_up_required` covering the id. Audited as `user.password_reset` with before / after
 * (docs/users-and-notifications.md#users-in-the-browser).
 */
export const POST = withUser(
  {
    permission: "users.manage",
    company: "none",
    params: IdParams,
    audit: { action: AUDIT_ACTION.userPasswordReset, objectType: "user" },
  },
  async (ctx) => {
    await requireUserStepUp(ctx, ctx.params.id);
    const db = await dashboardDb();
    const mailer = invitationMailer(ctx.request.nextUrl.origin);
    const { before, user, link } = await userAdminCall(() =>
      resetPassword(db, ctx.user.id, ctx.params.id, Date.now(), mailer),
    );
    ctx.audit.details = {
      before,
      after: user,
      sessions_ended: true,
      invitation_expires_at: link.expiresAt,
    };
    if (mailer) sendQueuedMail();
    return {
      user,
      emailed: mailer !== undefined,
      invitation_url: invitationUrl(link.token, ctx.request.nextUrl.origin),
      expires_at: link.expiresAt,
    };
  },
);
