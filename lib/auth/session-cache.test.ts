/**
 * The session cache over a real dashboard database (PGlite in memory): a
 * session's user is read once per few seconds, and a session that ends —
 * sign-out here, or a version bump on another instance — stops working at
 * once here and within the cache window elsewhere.
 */
import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { memoryDashboardDb } from "../db/test-db";
import { endSessions, findUserById, upsertUser, type UserWithSessionVersion } from "../db/users";
import { SessionCache, sessionCache, sessionKey, type LoadedSession } from "./session-cache";

const database = memoryDashboardDb();
let user: UserWithSessionVersion;
let clock: number;
let loads: number;
const LIFETIME_HOURS = 12;

// Each test has a user of its own: tests end sessions, change roles and disable the user, which must not reach others.
beforeEach(async () => {
  clock = Date.UTC(2026, 0, 10, 8, 0, 0);
  loads = 0;
  const u = await upsertUser(database.db, {
    email: `cache-${randomUUID()}@demo.local`,
    name: "Cache Test",
    roles: ["viewer"],
    companyIds: null,
  });
  const full = await findUserById(database.db, u.id);
  if (!full) throw new Error("no user");
  user = full;
});

/** The uncached path: the session signed in now under the version read at sign-in, and the user row. */
function loader(sv: number, authAt = Math.floor(clock / 1000)) {
  return async (): Promise<LoadedSession | null> => {
    loads++;
    const row = await findUserById(database.db, user.id);
    return row ? { session: { sv, authAt }, user: row } : null;
  };
}

describe("sessionKey", () => {
  it("hashes the session cookie(s) only, chunks in order; null without one", () => {
    const a = sessionKey([
      { name: "td_company", value: "x" },
      { name: "next-auth.session-token", value: "jwt" },
    ]);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toContain("jwt");
    expect(sessionKey([{ name: "next-auth.session-token", value: "jwt" }])).toBe(a);
    expect(sessionKey([{ name: "next-auth.session-token", value: "other" }])).not.toBe(a);
    const chunked = sessionKey([
      { name: "__Secure-next-auth.session-token.1", value: "b" },
      { name: "__Secure-next-auth.session-token.0", value: "a" },
    ]);
    expect(chunked).toBe(
      sessionKey([
        { name: "__Secure-next-auth.session-token.0", value: "a" },
        { name: "__Secure-next-auth.session-token.1", value: "b" },
      ]),
    );
    expect(sessionKey([{ name: "td_company", value: "x" }])).toBeNull();
  });
});

describe("SessionCache", () => {
  it("reads the session once per window: a second call within 5 s is served from memory", async () => {
    const cache = new SessionCache({ now: () => clock });
    const sv = user.sessionVersion;
    expect((await cache.user("k1", loader(sv), LIFETIME_HOURS))?.id).toBe(user.id);
    clock += 4_000;
    expect((await cache.user("k1", loader(sv), LIFETIME_HOURS))?.id).toBe(user.id);
    expect(loads).toBe(1);
    clock += 1_000;
    expect((await cache.user("k1", loader(sv), LIFETIME_HOURS))?.id).toBe(user.id);
    expect(loads).toBe(2);
  });

  it("sign-out in this process ends the cached session at once", async () => {
    const cache = sessionCache();
    const fresh = await findUserById(database.db, user.id);
    const sv = fresh?.sessionVersion ?? -1;
    const now = Math.floor(Date.now() / 1000); // the process's cache runs on the real clock
    expect((await cache.user("k-signout", loader(sv, now), LIFETIME_HOURS))?.id).toBe(user.id);
    await endSessions(database.db, user.id); // what the sign-out event does
    expect(await cache.user("k-signout", loader(sv, now), LIFETIME_HOURS)).toBeNull();
    expect(loads).toBe(2);
  });

  it("a session ended by another instance stops working within the 5 s window", async () => {
    const cache = new SessionCache({ now: () => clock });
    const fresh = await findUserById(database.db, user.id);
    const sv = fresh?.sessionVersion ?? -1;
    expect((await cache.user("k-other", loader(sv), LIFETIME_HOURS))?.id).toBe(user.id);
    // Another instance (or the CLI) ends the sessions: straight in the database, this cache is not told.
    await database.db.execute(sql`update users set session_version = session_version + 1 where id = ${user.id}`);
    clock += 2_000;
    expect((await cache.user("k-other", loader(sv), LIFETIME_HOURS))?.id).toBe(user.id); // inside the window
    clock += 3_000;
    expect(await cache.user("k-other", loader(sv), LIFETIME_HOURS)).toBeNull(); // 5 s after the read: ended
  });

  it("a role change in this process forgets the cached session", async () => {
    const cache = sessionCache();
    const fresh = await findUserById(database.db, user.id);
    const sv = fresh?.sessionVersion ?? -1;
    const now = Math.floor(Date.now() / 1000);
    expect((await cache.user("k-roles", loader(sv, now), LIFETIME_HOURS))?.roles).toEqual(["viewer"]);
    await upsertUser(database.db, { email: user.email, name: user.name, roles: ["treasurer"], companyIds: null });
    expect(await cache.user("k-roles", loader(sv, now), LIFETIME_HOURS)).toBeNull();
  });

  it("never keeps an ended or disabled session, and checks the absolute lifetime on every hit", async () => {
    const cache = new SessionCache({ now: () => clock });
    const fresh = await findUserById(database.db, user.id);
    const sv = fresh?.sessionVersion ?? -1;
    expect(await cache.user("k-old", loader(sv - 1), LIFETIME_HOURS)).toBeNull();
    expect(cache.size).toBe(0);
    const authAt = Math.floor(clock / 1000) - LIFETIME_HOURS * 3600 + 2;
    expect((await cache.user("k-life", loader(sv, authAt), LIFETIME_HOURS))?.id).toBe(user.id);
    clock += 3_000; // still cached, but past the absolute lifetime now
    expect(await cache.user("k-life", loader(sv, authAt), LIFETIME_HOURS)).toBeNull();
  });
});
