/**
 * Passkeys, WebAuthn challenges and step-up assertions in the dashboard DB (tables in ./schema.ts; the rules in
 * lib/auth/step-up-rules.ts; the WebAuthn ceremonies in lib/bff/webauthn.ts). Every function that takes a user id
 * acts only on that user's rows, so a route cannot reach another user's passkey by naming its id.
 * Times are ISO 8601 strings; `nowMs` is epoch milliseconds (injectable for tests).
 */
import { and, asc, count, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { sessionCache } from "../auth/session-cache";
import { CHALLENGE_TTL_MS, type StepUpProof } from "../auth/step-up-rules";
import type { DashboardDb } from "./client";
import { passkeyCredentials, stepUpAssertions, users, webauthnChallenges, type WebAuthnPurpose } from "./schema";

/** A passkey as the profile page lists it (no key material). */
export interface PasskeySummary {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  transports: string[];
}

/** A passkey with what verifying an assertion needs. */
export interface StoredPasskey extends PasskeySummary {
  userId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
}

const isUuid = (s: string) => z.uuid().safeParse(s).success;

function summary(row: typeof passkeyCredentials.$inferSelect): PasskeySummary {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    transports: row.transports,
  };
}

/** The user's passkeys, oldest first. */
export async function listPasskeys(db: DashboardDb, userId: string): Promise<PasskeySummary[]> {
  const rows = await db
    .select()
    .from(passkeyCredentials)
    .where(eq(passkeyCredentials.userId, userId))
    .orderBy(asc(passkeyCredentials.createdAt));
  return rows.map(summary);
}

/** The user's passkeys with key material (for the allow / exclude lists and verification). */
export async function storedPasskeys(db: DashboardDb, userId: string): Promise<StoredPasskey[]> {
  const rows = await db.select().from(passkeyCredentials).where(eq(passkeyCredentials.userId, userId));
  return rows.map((r) => ({
    ...summary(r),
    userId: r.userId,
    credentialId: r.credentialId,
    publicKey: r.publicKey,
    counter: r.counter,
  }));
}

/** How many passkeys each user has (users without one are absent). */
export async function passkeyCounts(db: DashboardDb): Promise<Map<string, number>> {
  const rows = await db
    .select({ userId: passkeyCredentials.userId, n: count() })
    .from(passkeyCredentials)
    .groupBy(passkeyCredentials.userId);
  return new Map(rows.map((r) => [r.userId, Number(r.n)]));
}

/** Whether the user has at least one passkey. */
export async function hasPasskey(db: DashboardDb, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: passkeyCredentials.id })
    .from(passkeyCredentials)
    .where(eq(passkeyCredentials.userId, userId))
    .limit(1);
  return rows.length > 0;
}

/** Stores a verified new passkey. @throws on a credential id already stored (unique). */
export async function addPasskey(
  db: DashboardDb,
  p: { userId: string; credentialId: string; publicKey: string; counter: number; transports: string[]; name: string },
): Promise<PasskeySummary> {
  const [row] = await db.insert(passkeyCredentials).values(p).returning();
  if (!row) throw new Error("passkey insert returned no row");
  return summary(row);
}

/** Renames one of the user's passkeys; null when the user has no passkey with this id. */
export async function renamePasskey(
  db: DashboardDb,
  userId: string,
  id: string,
  name: string,
): Promise<PasskeySummary | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .update(passkeyCredentials)
    .set({ name })
    .where(and(eq(passkeyCredentials.id, id), eq(passkeyCredentials.userId, userId)))
    .returning();
  return row ? summary(row) : null;
}

/** Removes one of the user's passkeys (its step-up assertions go with it); false when there is none with this id. */
export async function removePasskey(db: DashboardDb, userId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db
    .delete(passkeyCredentials)
    .where(and(eq(passkeyCredentials.id, id), eq(passkeyCredentials.userId, userId)))
    .returning({ id: passkeyCredentials.id });
  return rows.length > 0;
}

/**
 * Recovery by an administrator: removes every passkey of the user and ends all their sessions (the session version is
 * raised in the same transaction), so whoever held a session or a device must sign in again.
 * @returns how many passkeys were removed, or null when there is no such user.
 */
export async function removeAllPasskeys(db: DashboardDb, userId: string): Promise<number | null> {
  if (!isUuid(userId)) return null;
  const removed = await db.transaction(async (tx) => {
    const bumped = await tx
      .update(users)
      .set({ sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date().toISOString() })
      .where(eq(users.id, userId))
      .returning({ id: users.id });
    if (bumped.length === 0) return null;
    const removed = await tx
      .delete(passkeyCredentials)
      .where(eq(passkeyCredentials.userId, userId))
      .returning({ id: passkeyCredentials.id });
    return removed.length;
  });
  // The sessions end at once on this instance too, not when its session cache (5 s) next reads the user.
  if (removed !== null) sessionCache().forgetUser(userId);
  return removed;
}

/** Records the use of a passkey: the new signature counter and the time. */
export async function touchPasskey(db: DashboardDb, id: string, counter: number, nowMs = Date.now()): Promise<void> {
  await db
    .update(passkeyCredentials)
    .set({ counter, lastUsedAt: new Date(nowMs).toISOString() })
    .where(eq(passkeyCredentials.id, id));
}

/** A stored challenge. */
export type StoredChallenge = typeof webauthnChallenges.$inferSelect;

/** How long used challenges and step-up assertions are kept, in milliseconds (a day; they stand for 5 minutes). */
export const WEBAUTHN_RETENTION_MS = 24 * 60 * 60_000;

/**
 * Deletes every challenge (consumed or not, any user) created, and every step-up assertion verified, more than
 * `WEBAUTHN_RETENTION_MS` before `nowMs`. Neither can be used any more (both stand for 5 minutes), and the tables stay
 * small. The success audit entries keep the record of who confirmed what.
 * @returns how many challenges and assertions were deleted
 */
export async function purgeOldWebAuthnRows(
  db: DashboardDb,
  nowMs = Date.now(),
): Promise<{ challenges: number; assertions: number }> {
  const cutoff = new Date(nowMs - WEBAUTHN_RETENTION_MS).toISOString();
  const assertions = await db
    .delete(stepUpAssertions)
    .where(lt(stepUpAssertions.verifiedAt, cutoff))
    .returning({ id: stepUpAssertions.id });
  // Assertions reference their challenge (cascade): a challenge's assertion is verified after it is created.
  const challenges = await db
    .delete(webauthnChallenges)
    .where(lt(webauthnChallenges.createdAt, cutoff))
    .returning({ id: webauthnChallenges.id });
  return { challenges: challenges.length, assertions: assertions.length };
}

/**
 * Stores a challenge for this user and session, answerable for `CHALLENGE_TTL_MS`. Expired challenges of the user
 * are deleted on the way (they are useless, and the table stays small), and so are every user's challenges and
 * assertions older than a day (`purgeOldWebAuthnRows`; creating a challenge is a cheap, regular occasion).
 */
export async function createChallenge(
  db: DashboardDb,
  c: {
    userId: string;
    sessionId: string;
    purpose: WebAuthnPurpose;
    challenge: string;
    scope?: { action: string; subjects: string[] };
  },
  nowMs = Date.now(),
): Promise<StoredChallenge> {
  await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.userId, c.userId),
        lt(webauthnChallenges.expiresAt, new Date(nowMs).toISOString()),
        isNull(webauthnChallenges.consumedAt),
      ),
    );
  await purgeOldWebAuthnRows(db, nowMs);
  const [row] = await db
    .insert(webauthnChallenges)
    .values({
      ...c,
      scope: c.scope ?? null,
      createdAt: new Date(nowMs).toISOString(),
      expiresAt: new Date(nowMs + CHALLENGE_TTL_MS).toISOString(),
    })
    .returning();
  if (!row) throw new Error("challenge insert returned no row");
  return row;
}

/**
 * Takes a challenge for answering: marks it consumed and returns it, in one statement, only when it belongs to this
 * user, session and purpose, was not consumed and has not expired. A second call with the same id returns null (a
 * replayed answer is refused), as does an expired or foreign one.
 */
export async function consumeChallenge(
  db: DashboardDb,
  q: { id: string; userId: string; sessionId: string; purpose: WebAuthnPurpose },
  nowMs = Date.now(),
): Promise<StoredChallenge | null> {
  if (!isUuid(q.id)) return null;
  const now = new Date(nowMs).toISOString();
  const [row] = await db
    .update(webauthnChallenges)
    .set({ consumedAt: now })
    .where(
      and(
        eq(webauthnChallenges.id, q.id),
        eq(webauthnChallenges.userId, q.userId),
        eq(webauthnChallenges.sessionId, q.sessionId),
        eq(webauthnChallenges.purpose, q.purpose),
        isNull(webauthnChallenges.consumedAt),
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/** Records a verified step-up assertion; its id is the proof the browser sends with the decision. */
export async function recordAssertion(
  db: DashboardDb,
  a: {
    userId: string;
    sessionId: string;
    action: string;
    subjects: string[];
    credentialId: string;
    challengeId: string;
  },
  nowMs = Date.now(),
): Promise<StepUpProof & { id: string }> {
  const [row] = await db
    .insert(stepUpAssertions)
    .values({ ...a, verifiedAt: new Date(nowMs).toISOString() })
    .returning();
  if (!row) throw new Error("assertion insert returned no row");
  return row;
}

/** The assertion with this id, or null (also for a malformed id). */
export async function findAssertion(db: DashboardDb, id: string): Promise<StepUpProof | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(stepUpAssertions).where(eq(stepUpAssertions.id, id));
  return row ?? null;
}
