/**
 * The users area's BFF routes (docs/users-and-notifications.md#users-in-the-browser), declared against
 * ./endpoints.ts: the admin's user list and writes, each behind a passkey step-up where the admin's writes need one,
 * and the invitation link's acceptance, which takes no session.
 */
import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { AUDIT_ACTION, type AuditAction } from "@/lib/audit-actions";
import { requestIdFrom } from "@/lib/bff/context";
import { BffError, toBffError, validationError } from "@/lib/bff/errors";
import { checkDeclaredLength, isJsonContentType, readLimitedBody, refuseNul } from "@/lib/bff/input-guards";
import { originAllowed } from "@/lib/bff/origin";
import type { Endpoint } from "@/lib/bff/endpoint";
import { declareOpenRoute, declareRoute, defineRoutes, IdParams, type RouteContext } from "@/lib/bff/route";
import {
  invitationMailer,
  invitationUrl,
  requireUserStepUp,
  sendQueuedMail,
  userAdminCall,
} from "@/lib/bff/user-admin";
import { appendAudit } from "@/lib/db/audit";
import type { AdminUserView, IssuedLink, LinkHook } from "@/lib/db/user-admin";
import { passkeyCounts, removeAllPasskeys } from "@/lib/db/passkeys";
import {
  AcceptInvitation,
  acceptInvitation,
  changeUser,
  inviteUser,
  listAdminUsers,
  NewUserInput,
  resetPassword,
  UserChange,
} from "@/lib/db/user-admin";
import { getConfig } from "@/lib/server/config";
import { dashboardDb } from "@/lib/server/db";
import { logger } from "@/lib/server/log";
import { usersEndpoints } from "./endpoints";

const ACCEPT_MAX_BODY = 4 * 1024;

/**
 * POST /api/invitations/accept — sets a password through an invitation or reset link, without a session: body
 * `{ token, email, password }` (the e-mail must be the one the link was sent to); `{ email }` then the person signs
 * in. 400 naming `token` (unknown, used, revoked, expired, user disabled), `email` (another address) or `password`
 * (under 10 characters); 403 for a cross-origin request; 413 / 415 as every write. Audited as
 * `user.invitation_accept` (docs/users-and-notifications.md#invitations).
 */
async function acceptInvitationRoute(req: NextRequest): Promise<NextResponse> {
  const requestId = requestIdFrom(req.headers);
  const headers = { "Cache-Control": "no-store", "X-Request-ID": requestId };
  try {
    checkDeclaredLength(req.headers, ACCEPT_MAX_BODY);
    const config = getConfig();
    if (!originAllowed(req.headers.get("origin"), config.NEXTAUTH_URL, config.DASHBOARD_ALLOWED_ORIGINS))
      throw new BffError("permission_denied", "Cross-origin request refused.");
    const text = new TextDecoder().decode(await readLimitedBody(req, ACCEPT_MAX_BODY));
    if (!isJsonContentType(req.headers.get("content-type")))
      throw new BffError("unsupported_media_type", "Content-Type must be application/json for this request", {
        errors: { "Content-Type": ["must be application/json"] },
      });
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new BffError("validation_error", "body is not valid JSON", { errors: { body: ["is not valid JSON"] } });
    }
    refuseNul(raw, "body");
    const parsed = AcceptInvitation.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error, "body");
    const db = await dashboardDb();
    const user = await userAdminCall(() => acceptInvitation(db, parsed.data));
    await appendAudit(db, {
      userId: user.id,
      userEmail: user.email,
      action: AUDIT_ACTION.userInvitationAccept,
      objectType: "user",
      objectId: user.id,
      companyId: null,
      outcome: "success",
      requestId,
      details: { after: { has_password: true } },
    });
    return NextResponse.json({ email: user.email }, { status: 200, headers });
  } catch (err) {
    const mapped = toBffError(err, requestId);
    if (mapped.log) logger.error({ requestId, err }, "invitation accept failed");
    return NextResponse.json(mapped.body, { status: mapped.status, headers: { ...headers, ...mapped.headers } });
  }
}

/**
 * The answer of a write that issued `user` an invitation link (an invitation, a password reset): `{ user, emailed,
 * invitation_url, expires_at }`; with `mailer` (SMTP on) the queued e-mail is sent now
 * (docs/users-and-notifications.md#users-in-the-browser).
 */
function linkAnswer(user: AdminUserView, link: IssuedLink, mailer: LinkHook | undefined, origin: string) {
  if (mailer) sendQueuedMail();
  return {
    user,
    emailed: mailer !== undefined,
    invitation_url: invitationUrl(link.token, origin),
    expires_at: link.expiresAt,
  };
}

/**
 * A write on user `{id}` (a UUID, else 400) by an admin (`users.manage`, `company: "none"`), audited as `action` on the
 * user: the admin's passkey step-up covering the id is required first (else 403 `step_up_required`, audited, and
 * `handler` does not run; docs/users-and-notifications.md#users-in-the-browser).
 */
function userWrite<E extends Endpoint>(
  endpoint: E,
  action: AuditAction,
  handler: (ctx: RouteContext<{ id: string }, undefined, undefined>) => Promise<unknown>,
) {
  const audit = { action, objectType: "user" };
  return declareRoute(
    endpoint,
    { permission: "users.manage", company: "none", params: IdParams, audit },
    async (ctx) => {
      await requireUserStepUp(ctx, ctx.params.id);
      return handler(ctx);
    },
  );
}

export const usersRoutes = defineRoutes(usersEndpoints, {
  /**
   * GET /api/admin/users — every dashboard user (admin): `{ items: [{ id, email, name, roles, company_ids, disabled,
   * has_password, invitation_open, passkeys }] }` (docs/users-and-notifications.md#users-in-the-browser).
   */
  list: declareRoute(usersEndpoints.list, { permission: "users.manage", company: "none" }, async () => {
    const db = await dashboardDb();
    const [users, counts] = await Promise.all([listAdminUsers(db), passkeyCounts(db)]);
    return { items: users.map((u) => ({ ...u, passkeys: counts.get(u.id) ?? 0 })) };
  }),

  /**
   * POST /api/admin/users — adds a user without a password and issues their invitation link (72 h, single use, bound to
   * the e-mail): body `{ name, email, roles, company_ids? }`; 201 `{ user, invitation_url, expires_at }`. 400 naming the
   * field (a CR / LF in the name included), 409 when the e-mail is taken, 403 `step_up_required` (covering `new_user`)
   * when the admin's step-up is missing. Audited as `user.invite` with the user as created (`after`).
   */
  invite: declareRoute(
    usersEndpoints.invite,
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
      return linkAnswer(user, link, mailer, ctx.request.nextUrl.origin);
    },
  ),

  /**
   * PATCH /api/admin/users/{id} — changes a user's name, roles, companies or enabled state (admin): body any of
   * `{ name, roles, company_ids, disabled }`; `{ before, after }`. A change of roles, companies or state ends the
   * user's sessions; disabling revokes their open invitation. 400 naming `roles` for one's own admin role, `disabled`
   * for disabling oneself; 409 when no enabled admin would remain; 404 for an unknown user; 403 `step_up_required`
   * covering the id. Audited as `user.update`, `user.disable` or `user.enable` with before and after
   * (docs/users-and-notifications.md#users-in-the-browser).
   */
  change: declareRoute(
    usersEndpoints.change,
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
  ),

  /**
   * DELETE /api/admin/users/{id}/passkeys — recovery for a user who lost their device (admin): removes every passkey of
   * the user and ends all their sessions. Audited as `user.passkeys_remove` with the count; `{ removed }`; 404 for an
   * unknown user; 403 `step_up_required` covering the id when the admin's passkey step-up is missing.
   */
  removePasskeys: userWrite(usersEndpoints.removePasskeys, AUDIT_ACTION.userPasskeysRemove, async (ctx) => {
    const removed = await removeAllPasskeys(await dashboardDb(), ctx.params.id);
    if (removed === null) throw new BffError("not_found", "There is no user with this id.");
    ctx.audit.details = { removed, sessions_ended: true };
    return { id: ctx.params.id, removed };
  }),

  /**
   * POST /api/admin/users/{id}/password-reset — the user's password stops working, their sessions end and a new link
   * (72 h, single use, bound to their e-mail) is issued: `{ user, invitation_url, expires_at }`. 404 unknown user, 409
   * disabled user, 403 `step_up_required` covering the id. Audited as `user.password_reset` with before / after
   * (docs/users-and-notifications.md#users-in-the-browser).
   */
  resetPassword: userWrite(usersEndpoints.resetPassword, AUDIT_ACTION.userPasswordReset, async (ctx) => {
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
    return linkAnswer(user, link, mailer, ctx.request.nextUrl.origin);
  }),
  acceptInvitation: declareOpenRoute(usersEndpoints.acceptInvitation, acceptInvitationRoute),
});
