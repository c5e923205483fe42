/**
 * The BFF side of users managed in the browser (docs/users-and-notifications.md#users-in-the-browser): the step-up
 * every user write needs, the invitation link's URL, and the mapping of the rules' refusals to BFF errors.
 */
import "server-only";
import { AUDIT_ACTION } from "../audit-actions";
import { UserAdminError, type LinkHook } from "../db/user-admin";
import { emailEnabled, kickOutbox } from "../notify/runtime";
import { enqueueMail } from "../notify/store";
import { getConfig } from "../server/config";
import { BffError } from "./errors";
import { requireStepUp, type StepUpContext } from "./step-up";

/**
 * The passkey step-up of a user write: `user.manage` covering `subject` (the user's id, or `new_user`), refused and
 * audited as `user.refused` before anything changes.
 * @throws BffError 403 `step_up_required` (see lib/bff/step-up.ts)
 */
export function requireUserStepUp(ctx: StepUpContext, subject: string): Promise<"verified" | "not_needed"> {
  return requireStepUp(ctx, {
    action: "user.manage",
    subjects: [subject],
    refusal: AUDIT_ACTION.userRefused,
    objectType: "user",
  });
}

/**
 * The absolute URL of an invitation or reset link: `<NEXTAUTH_URL>/invite#<token>` (the
 * request's origin when NEXTAUTH_URL is unset, as in local demo mode). The token rides in the fragment,
 * which browsers never send to a server, so it stays out of access logs and Referer headers.
 */
export function invitationUrl(token: string, requestOrigin: string): string {
  const base = getConfig().NEXTAUTH_URL ?? requestOrigin;
  return `${base.replace(/\/+$/, "")}/invite#${token}`;
}

/**
 * Runs a user-admin write, turning a rule's refusal into the BFF error (400 naming the field, 404, 409).
 * @throws BffError for a `UserAdminError`; anything else as thrown
 */
export async function userAdminCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof UserAdminError) {
      throw new BffError(err.code, err.message, err.field ? { errors: { [err.field]: [err.message] } } : {});
    }
    throw err;
  }
}

/**
 * The hook that queues the link's e-mail in the transaction issuing it, when SMTP is on (else undefined: the admin
 * passes the link on). The e-mail goes to the user's address; its subject and body hold no user-typed header text
 * (the name is checked for CR / LF on input).
 */
export function invitationMailer(requestOrigin: string): LinkHook | undefined {
  if (!emailEnabled()) return undefined;
  return async (tx, user, link) => {
    const url = invitationUrl(link.token, requestOrigin);
    const invite = link.purpose === "invite";
    await enqueueMail(tx, {
      to: user.email,
      subject: invite ? "You are invited to the Treasury Dashboard" : "Set a new password for the Treasury Dashboard",
      body:
        `Hello ${user.name},\n\n` +
        (invite ? "an administrator added you to the Treasury Dashboard." : "an administrator reset your password.") +
        ` Set your password through this link (it works once, for ${user.email}, until ${link.expiresAt}):\n\n${url}\n`,
      kind: invite ? "user.invitation" : "user.password_reset",
      dedupeKey: `link:${user.id}:${link.expiresAt}`,
    });
  };
}

/** After a link's e-mail was committed: send it now (best effort; the outbox sweep retries). */
export function sendQueuedMail(): void {
  void kickOutbox();
}
