import { beforeEach, describe, expect, it } from "vitest";
import { memoryDashboardDb } from "./test-db";
import {
  addPasskey,
  consumeChallenge,
  createChallenge,
  findAssertion,
  hasPasskey,
  listPasskeys,
  passkeyCounts,
  purgeOldWebAuthnRows,
  recordAssertion,
  removeAllPasskeys,
  removePasskey,
  renamePasskey,
  WEBAUTHN_RETENTION_MS,
} from "./passkeys";
import { findUserById, upsertUser } from "./users";

const database = memoryDashboardDb();
let anna = "";
let bo = "";

// Every test gets its own Anna and Bo, with no passkeys, challenges or assertions left by another test.
let seq = 0;
beforeEach(async () => {
  seq += 1;
  anna = (await upsertUser(database.db, { email: `anna${seq}@example.com`, name: "Anna", roles: ["approver"] })).id;
  bo = (await upsertUser(database.db, { email: `bo${seq}@example.com`, name: "Bo", roles: ["approver"] })).id;
});

const key = (userId: string, credentialId: string, name = "Laptop") =>
  addPasskey(database.db, { userId, credentialId, publicKey: "pk", counter: 0, transports: ["internal"], name });

describe("passkeys", () => {
  it("are listed, renamed and removed only by their owner", async () => {
    const p = await key(anna, "cred-a1");
    expect(await hasPasskey(database.db, anna)).toBe(true);
    expect(await hasPasskey(database.db, bo)).toBe(false);
    expect(await renamePasskey(database.db, bo, p.id, "Mine now")).toBeNull();
    expect(await removePasskey(database.db, bo, p.id)).toBe(false);
    expect(await renamePasskey(database.db, anna, p.id, "Work laptop")).toMatchObject({ name: "Work laptop" });
    expect((await listPasskeys(database.db, anna)).map((x) => x.name)).toEqual(["Work laptop"]);
    expect(await removePasskey(database.db, anna, "not-a-uuid")).toBe(false);
    expect(await removePasskey(database.db, anna, p.id)).toBe(true);
    expect(await listPasskeys(database.db, anna)).toEqual([]);
  });

  it("a credential id is enrolled once", async () => {
    await key(bo, "cred-dup");
    await expect(key(anna, "cred-dup")).rejects.toThrow();
  });

  it("the admin's removal takes every passkey of the user and ends their sessions", async () => {
    await key(bo, "cred-b1");
    await key(anna, "cred-a2");
    await key(anna, "cred-a3", "Phone");
    const before = (await findUserById(database.db, anna))?.sessionVersion ?? -1;
    expect((await passkeyCounts(database.db)).get(anna)).toBe(2);
    expect(await removeAllPasskeys(database.db, anna)).toBe(2);
    expect((await findUserById(database.db, anna))?.sessionVersion).toBe(before + 1);
    expect(await hasPasskey(database.db, anna)).toBe(false);
    expect(await hasPasskey(database.db, bo)).toBe(true);
    expect(await removeAllPasskeys(database.db, "00000000-0000-4000-8000-000000000000")).toBeNull();
  });
});

describe("challenges", () => {
  const NOW = Date.parse("2026-11-23T12:00:00.000Z");
  /** Creates Anna's challenge in session s1 at NOW and returns the query that consumes it. */
  const annasChallenge = async (
    purpose: "step_up" | "registration",
    challenge: string,
    scope?: { action: string; subjects: string[] },
  ) => {
    const c = await createChallenge(database.db, { userId: anna, sessionId: "s1", purpose, challenge, scope }, NOW);
    return { id: c.id, userId: anna, sessionId: "s1", purpose };
  };

  it("are answered once: a replay is refused", async () => {
    const q = await annasChallenge("step_up", "x", { action: "approval.decide", subjects: ["a"] });
    expect(await consumeChallenge(database.db, q, NOW + 1000)).toMatchObject({
      challenge: "x",
      scope: { subjects: ["a"] },
    });
    expect(await consumeChallenge(database.db, q, NOW + 2000)).toBeNull();
  });

  it("expire after 5 minutes", async () => {
    const q = await annasChallenge("registration", "y");
    expect(await consumeChallenge(database.db, q, NOW + 5 * 60_000)).toBeNull();
  });

  it("belong to one user, session and purpose", async () => {
    const q = await annasChallenge("step_up", "z");
    expect(await consumeChallenge(database.db, { ...q, sessionId: "s2" }, NOW)).toBeNull();
    expect(await consumeChallenge(database.db, { ...q, userId: bo }, NOW)).toBeNull();
    expect(await consumeChallenge(database.db, { ...q, purpose: "registration" }, NOW)).toBeNull();
    expect(await consumeChallenge(database.db, q, NOW)).not.toBeNull();
  });
});

describe("assertions", () => {
  it("are found by their id with what they cover", async () => {
    const p = await key(bo, "cred-b2");
    const c = await createChallenge(database.db, { userId: bo, sessionId: "s9", purpose: "step_up", challenge: "w" });
    const a = await recordAssertion(database.db, {
      userId: bo,
      sessionId: "s9",
      action: "approval.decide",
      subjects: ["r1", "r2"],
      credentialId: p.id,
      challengeId: c.id,
    });
    expect(await findAssertion(database.db, a.id)).toMatchObject({
      userId: bo,
      sessionId: "s9",
      subjects: ["r1", "r2"],
    });
    expect(await findAssertion(database.db, "garbage")).toBeNull();
  });
});

describe("old challenges and assertions", () => {
  const T0 = Date.parse("2026-11-20T08:00:00.000Z");
  const DAY = WEBAUTHN_RETENTION_MS;

  /** A challenge answered and recorded as an assertion at `at` (both rows carry that time). */
  const confirmed = async (userId: string, credentialId: string, at: number) => {
    const c = await createChallenge(
      database.db,
      { userId, sessionId: "s-old", purpose: "step_up", challenge: `c${at}` },
      at,
    );
    await consumeChallenge(database.db, { id: c.id, userId, sessionId: "s-old", purpose: "step_up" }, at);
    const a = await recordAssertion(
      database.db,
      {
        userId,
        sessionId: "s-old",
        action: "approval_policy.change",
        subjects: ["new_rule"],
        credentialId,
        challengeId: c.id,
      },
      at,
    );
    return { challengeId: c.id, assertionId: a.id };
  };

  it("are deleted, for every user, once older than a day when a new challenge is created", async () => {
    const cy = (await upsertUser(database.db, { email: "cy@example.com", name: "Cy", roles: ["approver"] })).id;
    const dee = (await upsertUser(database.db, { email: "dee@example.com", name: "Dee", roles: ["admin"] })).id;
    const pc = await key(cy, "cred-cy");
    const old = await confirmed(cy, pc.id, T0);
    const unanswered = await createChallenge(
      database.db,
      { userId: cy, sessionId: "s-old", purpose: "registration", challenge: "never answered" },
      T0,
    );
    const recent = await confirmed(cy, pc.id, T0 + 60_000);
    expect(await findAssertion(database.db, old.assertionId)).not.toBeNull();

    // Another user's new challenge, a day and 30 s after T0: only the rows of T0 are more than a day old.
    await createChallenge(
      database.db,
      { userId: dee, sessionId: "s-new", purpose: "step_up", challenge: "n" },
      T0 + DAY + 30_000,
    );
    expect(await findAssertion(database.db, old.assertionId)).toBeNull();
    expect(await findAssertion(database.db, recent.assertionId)).not.toBeNull();
    const q = (id: string) => ({ id, userId: cy, sessionId: "s-old", purpose: "registration" as const });
    // The unanswered challenge is gone (consuming it would not find it even with a clock before its expiry).
    expect(await consumeChallenge(database.db, q(unanswered.id), T0 + 1000)).toBeNull();

    // Exactly a day old is kept; older is deleted.
    expect(await purgeOldWebAuthnRows(database.db, T0 + 60_000 + DAY)).toEqual({ challenges: 0, assertions: 0 });
    expect(await purgeOldWebAuthnRows(database.db, T0 + 60_001 + DAY)).toEqual({ challenges: 1, assertions: 1 });
    expect(await findAssertion(database.db, recent.assertionId)).toBeNull();
  });
});
