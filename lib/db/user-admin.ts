/**
 * Users managed in the browser (docs/users-and-notifications.md#users-in-the-browser): add a user with an
 * invitation link, change roles and companies, disable / enable, reset the password (a new link), and accept a link.
 * The rules every write keeps, on the server:
 *
 * - names and e-mail addresses hold no CR / LF or other control character (they end up in mail headers);
 * - an admin cannot take away their own admin role, nor disable themselves; no write leaves the dashboard without an
 *   enabled admin (checked under an advisory lock, so two admins demoting each other at once cannot both succeed);
 * - a link is a random 256-bit token of which only the SHA-256 is stored; it sets the password once, within
 *   `INVITATION_TTL_MS` (72 h), for the e-mail it was sent to, and dies when the user is disabled or a newer link is
 *   issued.
 *
 * Errors are `UserAdminError` with a `code` (`validation_error`, `not_found`, `conflict`) and, for a field, its name;
 * the BFF maps them to 400 / 404 / 409.
 */
import { createHash, randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { Role } from "../auth/roles";
import { sessionCache } from "../auth/session-cache";
import type { DashboardDb } from "./client";
import { userInvitations, users } from "./schema";
import { bcryptCost, findUserById, type DashboardUser } from "./users";

/** How long an invitation or reset link can be used: 72 hours, in milliseconds. */
export const INVITATION_TTL_MS = 72 * 3600_000;

/** A write refused by a rule: `code` is the BFF error code, `field` the input field it names (if any). */
export class UserAdminError extends Error {
  constructor(
    readonly code: "validation_error" | "not_found" | "conflict",
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "UserAdminError";
  }
}

// Any C0/C1 control character (CR and LF included) or a Unicode line / paragraph separator.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A person's name: trimmed, 1..200 characters, no control character (CR / LF would inject mail headers). */
export const PersonName = z
  .string()
  .trim()
  .min(1, { message: "is required" })
  .max(200, { message: "must be at most 200 characters" })
  .refine((s) => !CONTROL.test(s), { message: "must not contain line breaks or control characters" });

/** An e-mail address: RFC-shaped (zod's check), at most 254 characters, no control character; lower-cased. */
export const EmailAddress = z
  .string()
  .max(254, { message: "must be at most 254 characters" })
  .refine((s) => !CONTROL.test(s), { message: "must not contain line breaks or control characters" })
  .pipe(z.email({ message: "must be an e-mail address" }))
  .transform((s) => s.toLowerCase());

const CompanyIds = z
  .array(z.uuid({ message: "must be a company UUID" }))
  .max(500)
  .nullable();

/** Body of "add a user": name, e-mail, roles (≥ 1), companies (null = every company of the API client). */
export const NewUserInput = z.object({
  name: PersonName,
  email: EmailAddress,
  roles: z.array(Role).min(1, { message: "needs at least one role" }).max(4),
  company_ids: CompanyIds.default(null),
});
export type NewUserInput = z.output<typeof NewUserInput>;

/** Body of "change a user": any of name, roles, companies, disabled. */
export const UserChange = z
  .object({
    name: PersonName.optional(),
    roles: z.array(Role).min(1, { message: "needs at least one role" }).max(4).optional(),
    company_ids: CompanyIds.optional(),
    disabled: z.boolean().optional(),
  })
  .refine((c) => Object.values(c).some((v) => v !== undefined), { message: "names nothing to change" });
export type UserChange = z.output<typeof UserChange>;

/** A user as the admin page shows it and the audit log records it (before / after). */
export interface AdminUserView {
  id: string;
  email: string;
  name: string;
  roles: string[];
  company_ids: string[] | null;
  disabled: boolean;
  /** False until the user set a password (an open invitation, or SSO only). */
  has_password: boolean;
}

/** A link just issued: the token (shown once, never stored) and when it stops working (ISO 8601). */
export interface IssuedLink {
  token: string;
  expiresAt: string;
  purpose: "invite" | "reset";
}

type Tx = Parameters<Parameters<DashboardDb["transaction"]>[0]>[0];

/** Runs in the transaction that issued a link (the invitation e-mail is queued there, so it commits with it). */
export type LinkHook = (tx: Tx, user: AdminUserView, link: IssuedLink) => Promise<void>;

function view(row: typeof users.$inferSelect): AdminUserView {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    roles: [...row.roles],
    company_ids: row.companyIds ?? null,
    disabled: row.disabledAt !== null,
    has_password: row.passwordHash !== null,
  };
}

/** SHA-256 hex of a link token (what `user_invitations.token_hash` holds). */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Serialises admin-count checks (one lock id for the whole dashboard database). */
async function lockAdmins(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(3141031)`);
}

/** Enabled admins other than `exceptId`. */
async function otherEnabledAdmins(tx: Tx, exceptId: string): Promise<number> {
  const r = await tx.execute<{ n: number }>(
    sql`select count(*)::int as n from users where disabled_at is null and roles ? 'admin' and id <> ${exceptId}`,
  );
  const rows = (r as unknown as { rows?: { n: number }[] }).rows ?? (r as unknown as { n: number }[]);
  return Number(rows[0]?.n ?? 0);
}

/** Revokes every open link of a user. */
async function revokeOpenLinks(tx: Tx | DashboardDb, userId: string, at: string): Promise<void> {
  await tx
    .update(userInvitations)
    .set({ revokedAt: at })
    .where(and(eq(userInvitations.userId, userId), isNull(userInvitations.usedAt), isNull(userInvitations.revokedAt)));
}

/** Issues a new link for the user (older open ones revoked). */
async function issueLink(
  tx: Tx,
  user: { id: string; email: string },
  purpose: "invite" | "reset",
  createdBy: string | null,
  nowMs: number,
): Promise<IssuedLink> {
  const at = new Date(nowMs).toISOString();
  await revokeOpenLinks(tx, user.id, at);
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(nowMs + INVITATION_TTL_MS).toISOString();
  await tx.insert(userInvitations).values({
    userId: user.id,
    email: user.email,
    tokenHash: tokenHash(token),
    purpose,
    createdBy,
    createdAt: at,
    expiresAt,
  });
  return { token, expiresAt, purpose };
}

/**
 * Adds a user without a password and issues their invitation link.
 * @param actorId the admin adding (recorded on the link); `nowMs` injectable for tests
 * @throws UserAdminError `conflict` (field `email`) when a user with this e-mail exists
 */
export async function inviteUser(
  db: DashboardDb,
  actorId: string | null,
  input: NewUserInput,
  nowMs = Date.now(),
  onIssued?: LinkHook,
): Promise<{ user: AdminUserView; link: IssuedLink }> {
  return db.transaction(async (tx) => {
    const [exists] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
    if (exists) throw new UserAdminError("conflict", "A user with this e-mail address exists already.", "email");
    const [row] = await tx
      .insert(users)
      .values({ email: input.email, name: input.name, roles: input.roles, companyIds: input.company_ids })
      .returning();
    if (!row) throw new Error("user insert returned no row");
    const link = await issueLink(tx, row, "invite", actorId, nowMs);
    await onIssued?.(tx, view(row), link);
    return { user: view(row), link };
  });
}

/**
 * Changes a user's name, roles, companies or enabled state; a change of roles, companies or state ends the user's
 * sessions, and disabling revokes their open links.
 * @returns before and after
 * @throws UserAdminError `not_found`; `validation_error` naming `roles` when the actor would lose their own admin role,
 *   `disabled` when the actor would disable themselves; `conflict` when no enabled admin would remain
 */
export async function changeUser(
  db: DashboardDb,
  actorId: string,
  id: string,
  change: UserChange,
): Promise<{ before: AdminUserView; after: AdminUserView }> {
  const result = await db.transaction(async (tx) => {
    await lockAdmins(tx);
    const [before] = await tx.select().from(users).where(eq(users.id, id)).for("update");
    if (!before) throw new UserAdminError("not_found", "There is no user with this id.");
    const roles = change.roles ?? before.roles;
    const disabled = change.disabled ?? before.disabledAt !== null;
    if (id === actorId && before.roles.includes("admin") && !roles.includes("admin"))
      throw new UserAdminError("validation_error", "You cannot remove your own admin role.", "roles");
    if (id === actorId && disabled)
      throw new UserAdminError("validation_error", "You cannot disable yourself.", "disabled");
    const staysAdmin = roles.includes("admin") && !disabled;
    if (
      before.roles.includes("admin") &&
      before.disabledAt === null &&
      !staysAdmin &&
      (await otherEnabledAdmins(tx, id)) === 0
    )
      throw new UserAdminError("conflict", "This is the last enabled admin; add another admin first.");
    const sorted = (a: readonly string[] | null) => (a ? JSON.stringify([...a].sort()) : "null");
    const endsSessions =
      sorted(roles) !== sorted(before.roles) ||
      (change.company_ids !== undefined && sorted(change.company_ids) !== sorted(before.companyIds)) ||
      disabled !== (before.disabledAt !== null);
    const now = new Date().toISOString();
    const [after] = await tx
      .update(users)
      .set({
        ...(change.name !== undefined ? { name: change.name } : {}),
        roles,
        ...(change.company_ids !== undefined ? { companyIds: change.company_ids } : {}),
        disabledAt: disabled ? (before.disabledAt ?? now) : null,
        updatedAt: now,
        ...(endsSessions ? { sessionVersion: sql`${users.sessionVersion} + 1` } : {}),
      })
      .where(eq(users.id, id))
      .returning();
    if (!after) throw new Error("user update returned no row");
    if (disabled) await revokeOpenLinks(tx, id, now);
    return { before: view(before), after: view(after), endsSessions };
  });
  if (result.endsSessions) sessionCache().forgetUser(id);
  return { before: result.before, after: result.after };
}

/**
 * Resets a user's password: the old one stops working, every session ends, and a new link (72 h) is issued.
 * @throws UserAdminError `not_found`; `conflict` for a disabled user (enable them first)
 */
export async function resetPassword(
  db: DashboardDb,
  actorId: string,
  id: string,
  nowMs = Date.now(),
  onIssued?: LinkHook,
): Promise<{ before: AdminUserView; user: AdminUserView; link: IssuedLink }> {
  const r = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(users).where(eq(users.id, id)).for("update");
    if (!row) throw new UserAdminError("not_found", "There is no user with this id.");
    if (row.disabledAt !== null) throw new UserAdminError("conflict", "This user is disabled; enable them first.");
    const [after] = await tx
      .update(users)
      .set({
        passwordHash: null,
        updatedAt: new Date(nowMs).toISOString(),
        sessionVersion: sql`${users.sessionVersion} + 1`,
      })
      .where(eq(users.id, id))
      .returning();
    if (!after) throw new Error("user update returned no row");
    const link = await issueLink(tx, after, "reset", actorId, nowMs);
    await onIssued?.(tx, view(after), link);
    return { before: view(row), user: view(after), link };
  });
  sessionCache().forgetUser(id);
  return r;
}

/** Body of "set my password through a link": the token, the e-mail the link was sent to, the new password. */
export const AcceptInvitation = z.object({
  token: z.string().min(20, { message: "is not a valid link" }).max(200, { message: "is not a valid link" }),
  email: EmailAddress,
  password: z
    .string()
    .min(10, { message: "must be at least 10 characters" })
    .max(200, { message: "must be at most 200 characters" }),
});
export type AcceptInvitation = z.output<typeof AcceptInvitation>;

/**
 * Sets the password through a link, once. The link must exist, be unused, unrevoked and unexpired, belong to the
 * e-mail typed (and to the user's current e-mail), and its user must be enabled; the same message answers every
 * failure except "expired", so a guessed token tells nothing. The link is marked used in the same transaction.
 * @throws UserAdminError `validation_error` (field `token`, or `email` for another address)
 */
export async function acceptInvitation(
  db: DashboardDb,
  input: AcceptInvitation,
  nowMs = Date.now(),
): Promise<DashboardUser> {
  const userId = await db.transaction(async (tx) => {
    const [link] = await tx
      .select()
      .from(userInvitations)
      .where(eq(userInvitations.tokenHash, tokenHash(input.token)))
      .for("update");
    const invalid = () => new UserAdminError("validation_error", "This link is not valid (any more).", "token");
    if (!link || link.usedAt !== null || link.revokedAt !== null) throw invalid();
    if (Date.parse(link.expiresAt) <= nowMs)
      throw new UserAdminError("validation_error", "This link has expired; ask an admin for a new one.", "token");
    if (link.email !== input.email)
      throw new UserAdminError("validation_error", "This is not the address the link was sent to.", "email");
    const [user] = await tx.select().from(users).where(eq(users.id, link.userId)).for("update");
    if (!user || user.disabledAt !== null || user.email !== link.email) throw invalid();
    // Hashed only for a valid link, so that junk tokens cost no bcrypt time.
    const passwordHash = await bcrypt.hash(input.password, bcryptCost());
    const at = new Date(nowMs).toISOString();
    await tx.update(userInvitations).set({ usedAt: at }).where(eq(userInvitations.id, link.id));
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: at, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, user.id));
    return user.id;
  });
  sessionCache().forgetUser(userId);
  const u = await findUserById(db, userId);
  if (!u) throw new Error("user vanished after accepting the invitation");
  return u;
}

/** Every user as the admin page shows them, with whether an unexpired link is open. */
export async function listAdminUsers(
  db: DashboardDb,
  nowMs = Date.now(),
): Promise<(AdminUserView & { invitation_open: boolean })[]> {
  const rows = await db.select().from(users).orderBy(users.email);
  const open = await db
    .select({ userId: userInvitations.userId })
    .from(userInvitations)
    .where(
      and(
        isNull(userInvitations.usedAt),
        isNull(userInvitations.revokedAt),
        sql`${userInvitations.expiresAt} > ${new Date(nowMs).toISOString()}`,
      ),
    );
  const withLink = new Set(open.map((o) => o.userId));
  return rows.map((r) => ({ ...view(r), invitation_open: withLink.has(r.id) }));
}
