/**
 * The single sign-on account each dashboard user is tied to (the rule is in lib/auth/oidc-identity.ts, step 4): the
 * OIDC issuer and the
 * IdP's subject (`sub`), stored on the user row at the first successful SSO
 * sign-in. Once tied, a sign-in with the same e-mail but another IdP account
 * is refused, so an IdP that hands a leaver's address to someone else does
 * not hand over the leaver's dashboard access. An administrator clears the
 * tie with `npm run users -- unlink-sso --email E`.
 *
 * Both changes are audited in the same transaction (`user.sso_link`,
 * `user.sso_unlink`). The database keeps one user per IdP account (unique
 * index `users_sso_account`).
 */
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { appendAudit } from "./audit";
import type { DashboardDb } from "./client";
import { users } from "./schema";
import { accountName } from "./users";
import { isUniqueViolation } from "@treasury/contract/sql/errors";

/** An account at an OpenID provider: issuer identifier (`iss`) and subject (`sub`), compared exactly. */
export interface SsoAccount {
  issuer: string;
  subject: string;
}

/** The account a user is tied to, and since when (ISO 8601 timestamp, UTC: `2026-01-10T08:00:00.000Z`). */
export interface SsoLink extends SsoAccount {
  linkedAt: string;
}

/**
 * Outcome of `linkSsoAccount`: `linked` (tied now, audited); `taken` (another
 * user is tied to that IdP account); `changed` (this user was tied meanwhile,
 * by a concurrent sign-in). Nothing is written unless `linked`.
 */
export type LinkOutcome = "linked" | "taken" | "changed";

function toLink(row: {
  ssoIssuer: string | null;
  ssoSubject: string | null;
  ssoLinkedAt: string | null;
}): SsoLink | null {
  if (row.ssoIssuer === null || row.ssoSubject === null || row.ssoLinkedAt === null) return null;
  // The drivers return PostgreSQL's text form (`2026-01-10 08:00:00+00`); callers get ISO 8601.
  return { issuer: row.ssoIssuer, subject: row.ssoSubject, linkedAt: new Date(row.ssoLinkedAt).toISOString() };
}

const linkColumns = { ssoIssuer: users.ssoIssuer, ssoSubject: users.ssoSubject, ssoLinkedAt: users.ssoLinkedAt };

/** The SSO account the user with this id is tied to; null when none (or no such user). */
export async function ssoLinkOf(db: DashboardDb, userId: string): Promise<SsoLink | null> {
  const [row] = await db.select(linkColumns).from(users).where(eq(users.id, userId));
  return row ? toLink(row) : null;
}

/** The id of the user tied to this IdP account, or null. */
export async function userIdOfSsoAccount(db: DashboardDb, account: SsoAccount): Promise<string | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.ssoIssuer, account.issuer), eq(users.ssoSubject, account.subject)));
  return row?.id ?? null;
}

/** Every tie, keyed by user id (for `users list`). */
export async function listSsoLinks(db: DashboardDb): Promise<Map<string, SsoLink>> {
  const rows = await db
    .select({ id: users.id, ...linkColumns })
    .from(users)
    .where(isNotNull(users.ssoSubject));
  const out = new Map<string, SsoLink>();
  for (const row of rows) {
    const link = toLink(row);
    if (link) out.set(row.id, link);
  }
  return out;
}

/**
 * Ties the user to `account` if they are tied to none yet, and appends the
 * audit event `user.sso_link` (by the user, details: issuer, subject) in the
 * same transaction. Safe against concurrent sign-ins: the update only touches
 * an untied row, and the unique index refuses a second user for one account.
 * @returns the outcome (see `LinkOutcome`).
 * @throws on database errors other than the unique violation.
 */
export async function linkSsoAccount(
  db: DashboardDb,
  user: { id: string; email: string },
  account: SsoAccount,
): Promise<LinkOutcome> {
  try {
    return await db.transaction(async (tx) => {
      const now = new Date().toISOString();
      const rows = await tx
        .update(users)
        .set({ ssoIssuer: account.issuer, ssoSubject: account.subject, ssoLinkedAt: now, updatedAt: now })
        .where(and(eq(users.id, user.id), isNull(users.ssoSubject)))
        .returning({ id: users.id });
      if (rows.length === 0) return "changed";
      await appendAudit(tx, {
        userId: user.id,
        userEmail: user.email,
        action: "user.sso_link",
        objectType: "user",
        objectId: user.id,
        outcome: "success",
        details: { issuer: account.issuer, subject: account.subject },
      });
      return "linked";
    });
  } catch (err) {
    if (isUniqueViolation(err)) return "taken";
    throw err;
  }
}

/**
 * Clears the SSO tie of the user with this e-mail (case-insensitive), so that
 * their next single sign-on ties them to the account they then use; appends
 * `user.sso_unlink` (actor `actor`, details: the former issuer and subject)
 * in the same transaction. Nothing is written when the user is not tied.
 * @param actor who did it, for the audit log (e.g. `users-cli:<os user>`).
 * @returns `null` when there is no such user; else the former tie (null when there was none).
 */
export async function unlinkSsoAccount(
  db: DashboardDb,
  email: string,
  actor: string,
): Promise<{ former: SsoLink | null } | null> {
  const address = accountName(email);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: users.id, ...linkColumns })
      .from(users)
      .where(eq(users.email, address))
      .for("update");
    if (!row) return null;
    const former = toLink(row);
    if (!former) return { former: null };
    await tx
      .update(users)
      .set({ ssoIssuer: null, ssoSubject: null, ssoLinkedAt: null, updatedAt: new Date().toISOString() })
      .where(eq(users.id, row.id));
    await appendAudit(tx, {
      userId: null,
      userEmail: actor,
      action: "user.sso_unlink",
      objectType: "user",
      objectId: row.id,
      outcome: "success",
      details: { email: address, issuer: former.issuer, subject: former.subject, linkedAt: former.linkedAt },
    });
    return { former };
  });
}
