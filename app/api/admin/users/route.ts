import { AUDIT_ACTION } from "@/lib/audit-actions";
import { withUser } from "@/lib/bff/route";
import {
  invitationMailer,
  invitationUrl,
  requireUserStepUp,
  sendQueuedMail,
  userAdminCall,
} from "@/lib/bff/user-admin";
import { passkeyCounts } from "@/lib/db/passkeys";
import { inviteUser, listAdminUsers, NewUserInput } from "@/lib/db/user-admin";
import { dashboardDb } from "@/lib/server/db";

/**
 * GET /api/admin/users — every dashboard user (admin): `{ items: [{ id, email, name, roles, company_ids, disabled,
 * has_password, invitation_open, passkeys }] }` (docs/users-and-notifications.md#users-in-the-browser).
 */
export const GET = withUser({ permission: "users.manage", company: "none" }, async () => {
  const db = await dashboardDb();
  const [users, counts] = await Promise.all([listAdminUsers(db), passkeyCounts(db)]);
  return { items: users.map((u) => ({ ...u, passkeys: counts.get(u.id) ?? 0 })) };
});

/**
 * POST /api/admin/users — adds a user without a password and issues their invitation link (72 h, single use, bound to
 * the e-mail): body `{ name, email, roles, company_ids? }`; 201 `{ user, invitation_url, expires_at }`. 400 naming the
 * field (a CR / LF in the name included), 409 when the e-mail is taken, 403 `step_up_required` (covering `new_user`)
 * when the admin's step-up is missing. Audited as `user.invite` with the user as created (`after`).
 */
export const POST = withUser(
  {
    permission: "users.manage",
    company: "none",
    body: NewUserInput,
    status: 201,
    audit: { action: AUDIT_ACTION.userInvite, objectType: "user" },
  },
  async (ctx) => {
    await requireUserStepUp(ctx, "new_user");
    const db = await dashboardDb();
    const mailer = invitationMailer(ctx.request.nextUrl.origin);
    const { user, link } = await userAdminCall(() => inviteUser(db, ctx.user.id, ctx.body, Date.now(), mailer));
    ctx.audit.objectId = user.id;
    ctx.audit.details = { before: null, after: user, invitation_expires_at: link.expiresAt };
    if (mailer) sendQueuedMail();
    return {
      user,
      emailed: mailer !== undefined,
      invitation_url: invitationUrl(link.token, ctx.request.nextUrl.origin),
      expires_at: link.expiresAt,
    };
  },
);
