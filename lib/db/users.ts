/**
 * Users of the dashboard: create, find, list, disable, password
 * check with per-account throttling of failed sign-ins.
 *
 * Throttling: after `FREE_FAILURES` consecutive failures for one account name
 * the account is locked for 30 s, doubling with each further failure up to
 * 15 minutes. A success resets the counter. Unknown account names are
 * throttled the same way and cost the same bcrypt time, so neither timing nor
 * lock-out tells which accounts exist.
 */
import bcrypt from "bcryptjs";
import { asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { Role, parseRoles } from "../auth/roles";
import { sessionCache } from "../auth/session-cache";
import type { DashboardDb } from "./client";
import { signInThrottle, users } from "./schema";

/** A user as the rest of the dashboard sees it (no password hash). */
export interface DashboardUser {
  id: string;
  email: string;
  name: string;
  roles: Role[];
  /** Allowed company ids; null = every company of the API client. */
  companyIds: string[] | null;
  disabled: boolean;
}

/** A user with the session version its sessions must carry (a session signed in under another one has ended). */
export type UserWithSessionVersion = DashboardUser & { sessionVersion: number };

export const FREE_FAILURES = 5;
const BASE_LOCK_MS = 30_000;
const MAX_LOCK_MS = 15 * 60_000;

/** bcrypt cost: 10 by default; `DASHBOARD_BCRYPT_COST` (4..15) lowers it for tests only. */
export function bcryptCost(): number {
  const n = Number(process.env.DASHBOARD_BCRYPT_COST);
  return Number.isInteger(n) && n >= 4 && n <= 15 ? n : 10;
}

// A valid hash of a random string, compared against when the account does not
// exist, so an unknown account costs the same time as a wrong password.
let dummyHash: { cost: number; hash: string } | undefined;
function dummy(): string {
  const cost = bcryptCost();
  if (dummyHash?.cost !== cost)
    dummyHash = { cost, hash: bcrypt.hashSync("not-a-real-password-" + Math.random().toString(36), cost) };
  return dummyHash.hash;
}

/** Input of `createUser`, validated. */
export const NewUser = z.object({
  email: z.email({ message: "must be an e-mail address" }).transform((s) => s.toLowerCase()),
  name: z.string().trim().min(1, { message: "is required" }).max(200),
  password: z.string().min(10, { message: "must be at least 10 characters" }).max(200).optional(),
  roles: z.array(Role).min(1, { message: "needs at least one role" }),
  companyIds: z
    .array(z.uuid({ message: "must be a company UUID" }))
    .nullable()
    .default(null),
});
export type NewUser = z.input<typeof NewUser>;

function toUser(row: typeof users.$inferSelect): UserWithSessionVersion {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    roles: parseRoles(row.roles),
    companyIds: row.companyIds ?? null,
    disabled: row.disabledAt !== null,
    sessionVersion: row.sessionVersion,
  };
}

/**
 * Creates a user, or updates name, password, roles and companies of an
 * existing one with the same e-mail (and enables it again). A change of
 * roles, companies or password, or enabling a disabled user, ends the
 * user's sessions (the same values again, as a demo re-seed writes, do not).
 * @throws ZodError for invalid input.
 */
export async function upsertUser(db: DashboardDb, input: NewUser): Promise<DashboardUser> {
  const u = NewUser.parse(input);
  const passwordHash = u.password ? await bcrypt.hash(u.password, bcryptCost()) : null;
  const now = new Date().toISOString();
  const [before] = await db.select().from(users).where(eq(users.email, u.email));
  const changed =
    before !== undefined &&
    (before.disabledAt !== null ||
      JSON.stringify([...before.roles].sort()) !== JSON.stringify([...u.roles].sort()) ||
      JSON.stringify(before.companyIds ? [...before.companyIds].sort() : null) !==
        JSON.stringify(u.companyIds ? [...u.companyIds].sort() : null) ||
      (u.password !== undefined && !(before.passwordHash && (await bcrypt.compare(u.password, before.passwordHash)))));
  const [row] = await db
    .insert(users)
    .values({ email: u.email, name: u.name, passwordHash, roles: u.roles, companyIds: u.companyIds })
    .onConflictDoUpdate({
      target: users.email,
      set: {
        name: u.name,
        roles: u.roles,
        companyIds: u.companyIds,
        disabledAt: null,
        updatedAt: now,
        ...(changed ? { sessionVersion: sql`${users.sessionVersion} + 1` } : {}),
        ...(passwordHash ? { passwordHash } : {}),
      },
    })
    .returning();
  if (!row) throw new Error("user upsert returned no row");
  if (changed) sessionCache().forgetUser(row.id);
  return toUser(row);
}

/** Ends every session of the user (sign-out; an admin's "sign out everywhere"). Returns false when no such user. */
export async function endSessions(db: DashboardDb, userId: string): Promise<boolean> {
  if (!z.uuid().safeParse(userId).success) return false;
  const rows = await db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date().toISOString() })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  // This instance's cached sessions of the user end now; other instances' within their few seconds.
  sessionCache().forgetUser(userId);
  return rows.length > 0;
}

/** The account name an e-mail stands for: trimmed and lower-cased (users are found by it case-insensitively). */
export function accountName(email: string): string {
  return email.trim().toLowerCase();
}

/** The user with this id, or null. */
export async function findUserById(db: DashboardDb, id: string): Promise<UserWithSessionVersion | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ? toUser(row) : null;
}

/** The user with this e-mail (case-insensitive), or null. */
export async function findUserByEmail(db: DashboardDb, email: string): Promise<DashboardUser | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, accountName(email)));
  return row ? toUser(row) : null;
}

/** Every user, by e-mail. */
export async function listUsers(db: DashboardDb): Promise<DashboardUser[]> {
  const rows = await db.select().from(users).orderBy(asc(users.email));
  return rows.map(toUser);
}

/** Disables a user (sign-in refused, every session ended). Returns false when no such user. */
export async function disableUser(db: DashboardDb, email: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({
      disabledAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      sessionVersion: sql`${users.sessionVersion} + 1`,
    })
    .where(eq(users.email, accountName(email)))
    .returning({ id: users.id });
  for (const r of rows) sessionCache().forgetUser(r.id);
  return rows.length > 0;
}

export type CredentialsResult =
  | { ok: true; user: DashboardUser }
  /** `lockedUntil`: this failure locked the account name until then (ISO 8601), else null. */
  | { ok: false; reason: "invalid"; lockedUntil: string | null; failures: number }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

/**
 * Checks an e-mail and password, with throttling per account name.
 * `now` is injectable for tests (milliseconds since the epoch).
 */
export async function verifyCredentials(
  db: DashboardDb,
  email: string,
  password: string,
  now = Date.now(),
): Promise<CredentialsResult> {
  const account = accountName(email);
  const [throttle] = await db.select().from(signInThrottle).where(eq(signInThrottle.account, account));
  if (throttle?.lockedUntil) {
    const until = Date.parse(throttle.lockedUntil);
    if (until > now) return { ok: false, reason: "throttled", retryAfterSeconds: Math.ceil((until - now) / 1000) };
  }
  const [row] = await db.select().from(users).where(eq(users.email, account));
  const hash = row?.passwordHash ?? dummy();
  const matches = await bcrypt.compare(password, hash);
  if (matches && row && row.passwordHash && row.disabledAt === null) {
    if (throttle) await db.delete(signInThrottle).where(eq(signInThrottle.account, account));
    return { ok: true, user: toUser(row) };
  }
  const failures = (throttle?.failures ?? 0) + 1;
  const lockMs = failures >= FREE_FAILURES ? Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** (failures - FREE_FAILURES)) : 0;
  const lockedUntil = lockMs > 0 ? new Date(now + lockMs).toISOString() : null;
  const at = new Date(now).toISOString();
  await db
    .insert(signInThrottle)
    .values({ account, failures, lockedUntil, lastFailureAt: at })
    .onConflictDoUpdate({
      target: signInThrottle.account,
      set: { failures: sql`${signInThrottle.failures} + 1`, lockedUntil, lastFailureAt: at },
    });
  return { ok: false, reason: "invalid", lockedUntil, failures };
}
