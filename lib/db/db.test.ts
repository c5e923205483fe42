import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { memoryDashboardDb } from "./test-db";
import { appendAudit, listAudit } from "./audit";
import { DEMO_PASSWORD, DEMO_USERS, seedDemoUsers } from "./demo-users";
import { linkSsoAccount, listSsoLinks, ssoLinkOf, unlinkSsoAccount, userIdOfSsoAccount } from "./sso-accounts";
import {
  FREE_FAILURES,
  disableUser,
  endSessions,
  findUserByEmail,
  findUserById,
  listUsers,
  upsertUser,
  verifyCredentials,
} from "./users";

const database = memoryDashboardDb();
const C1 = "11111111-1111-4111-8111-111111111111";
const C2 = "22222222-2222-4222-8222-222222222222";
const C3 = "33333333-3333-4333-8333-333333333333";

describe("users", () => {
  it("creates with a bcrypt hash, finds case-insensitively, updates on the same e-mail", async () => {
    const u = await upsertUser(database.db, {
      email: "Kari@Example.com",
      name: "Kari",
      password: "correct-horse-1",
      roles: ["viewer"],
    });
    expect(u).toMatchObject({ email: "kari@example.com", roles: ["viewer"], companyIds: null, disabled: false });
    const again = await upsertUser(database.db, {
      email: "kari@example.com",
      name: "Kari N",
      roles: ["viewer", "treasurer"],
      companyIds: [C1],
    });
    expect(again.id).toBe(u.id);
    expect((await findUserByEmail(database.db, "KARI@example.com"))?.roles).toEqual(["viewer", "treasurer"]);
    // Password kept when not given.
    expect((await verifyCredentials(database.db, "kari@example.com", "correct-horse-1")).ok).toBe(true);
  });

  it("rejects bad input", async () => {
    await expect(upsertUser(database.db, { email: "not-an-email", name: "x", roles: ["viewer"] })).rejects.toThrow(
      /e-mail/,
    );
    await expect(upsertUser(database.db, { email: "a@b.co", name: "x", roles: [] })).rejects.toThrow(/role/);
    await expect(
      upsertUser(database.db, { email: "a@b.co", name: "x", password: "short", roles: ["admin"] }),
    ).rejects.toThrow(/10 characters/);
  });

  it("throttles failed sign-ins per account, also for unknown accounts, and resets on success", async () => {
    await upsertUser(database.db, {
      email: "t@example.com",
      name: "T",
      password: "right-password-1",
      roles: ["viewer"],
    });
    const t0 = Date.UTC(2026, 0, 10, 8);
    for (let i = 0; i < FREE_FAILURES; i++)
      expect(await verifyCredentials(database.db, "t@example.com", "wrong", t0)).toMatchObject({
        ok: false,
        reason: "invalid",
        failures: i + 1,
        lockedUntil: i + 1 === FREE_FAILURES ? new Date(t0 + 30_000).toISOString() : null,
      });
    // Locked now, even with the right password.
    expect(await verifyCredentials(database.db, "t@example.com", "right-password-1", t0 + 1000)).toEqual({
      ok: false,
      reason: "throttled",
      retryAfterSeconds: 29,
    });
    // After the lock, a success resets the counter.
    expect((await verifyCredentials(database.db, "t@example.com", "right-password-1", t0 + 31_000)).ok).toBe(true);
    expect((await verifyCredentials(database.db, "t@example.com", "wrong", t0 + 32_000)).ok).toBe(false);
    expect(await verifyCredentials(database.db, "t@example.com", "right-password-1", t0 + 33_000)).toMatchObject({
      ok: true,
    });
    for (let i = 0; i < FREE_FAILURES; i++) await verifyCredentials(database.db, "ghost@example.com", "x", t0);
    expect(await verifyCredentials(database.db, "ghost@example.com", "x", t0)).toMatchObject({ reason: "throttled" });
  });

  it("disabled users cannot sign in", async () => {
    await upsertUser(database.db, {
      email: "d@example.com",
      name: "D",
      password: "right-password-1",
      roles: ["viewer"],
    });
    expect(await disableUser(database.db, "d@example.com")).toBe(true);
    expect(await disableUser(database.db, "nobody@example.com")).toBe(false);
    expect((await verifyCredentials(database.db, "d@example.com", "right-password-1")).ok).toBe(false);
    expect((await listUsers(database.db)).find((u) => u.email === "d@example.com")?.disabled).toBe(true);
  });

  it(
    "ends a user's sessions on sign-out, disabling and a change of roles, companies or password, not on a " + "re-seed",
    async () => {
      const base = {
        email: "sessions@example.com",
        name: "S",
        password: "correct-horse-9",
        roles: ["viewer" as const],
      };
      const u = await upsertUser(database.db, base);
      const version = async () => (await findUserById(database.db, u.id))?.sessionVersion;
      expect(await version()).toBe(0);
      await upsertUser(database.db, { ...base, roles: ["viewer"] }); // the same values again (a demo re-seed)
      expect(await version()).toBe(0);
      await upsertUser(database.db, { ...base, roles: ["viewer", "treasurer"] });
      expect(await version()).toBe(1);
      await upsertUser(database.db, { ...base, roles: ["treasurer", "viewer"], companyIds: [C1] });
      expect(await version()).toBe(2);
      await upsertUser(database.db, {
        ...base,
        roles: ["treasurer", "viewer"],
        companyIds: [C1],
        password: "new-horse-12",
      });
      expect(await version()).toBe(3);
      expect(await endSessions(database.db, u.id)).toBe(true);
      expect(await version()).toBe(4);
      expect(await disableUser(database.db, base.email)).toBe(true);
      expect(await version()).toBe(5);
      // Enabling again (users add on a disabled user) is a change too.
      await upsertUser(database.db, {
        ...base,
        roles: ["treasurer", "viewer"],
        companyIds: [C1],
        password: "new-horse-12",
      });
      expect(await version()).toBe(6);
      expect(await endSessions(database.db, "not-a-uuid")).toBe(false);
      expect(await endSessions(database.db, C3)).toBe(false);
    },
  );

  it(
    "seeds the demo users: one per role, three approvers (one outside every approver group), a lead with two roles, " +
      "the viewer limited to the first two companies",
    async () => {
      const users = await seedDemoUsers(database.db, [C1, C2, C3]);
      expect(users).toHaveLength(DEMO_USERS.length);
      expect(users.filter((u) => u.roles.length === 1 && u.roles[0] === "approver")).toHaveLength(3);
      expect(users.find((u) => u.email === "lead@demo.local")?.roles.sort()).toEqual(["approver", "treasurer"]);
      expect(users.find((u) => u.roles.includes("viewer"))?.companyIds).toEqual([C1, C2]);
      expect((await verifyCredentials(database.db, "admin@demo.local", DEMO_PASSWORD)).ok).toBe(true);
    },
  );

  it("the viewer's companies are chosen once, by id: a company created later (listed first) changes nothing", async () => {
    await seedDemoUsers(database.db, [C1, C2, C3]);
    // A restart after someone created a company whose name sorts first: the list the API gives has changed.
    const again = await seedDemoUsers(database.db, [C3, C1, C2]);
    expect(again.find((u) => u.roles.includes("viewer"))?.companyIds).toEqual([C1, C2]);
    // A chosen company that no longer exists is dropped, and the viewer is topped up to two from the list.
    const shrunk = await seedDemoUsers(database.db, [C3, C2]);
    expect(shrunk.find((u) => u.roles.includes("viewer"))?.companyIds).toEqual([C2, C3]);
  });
});

describe("single sign-on account ties", () => {
  const IDP = "https://idp.example.com";
  // drizzle wraps the driver error ("Failed query: ..."); the database's reason is its cause.
  const dbError = (p: Promise<unknown>) =>
    p.then(
      () => "no error",
      (e: unknown) => (e instanceof Error && e.cause instanceof Error ? e.cause.message : String(e)),
    );
  const auditOf = async (action: string, objectId: string) =>
    await listAudit(database.db, { companyIds: null, action, objectIds: [objectId] });

  it(
    "ties a user at the first single sign-on, audited once; a second tie of the same user changes " + "nothing",
    async () => {
      const u = await upsertUser(database.db, { email: "sso1@example.com", name: "S1", roles: ["viewer"] });
      expect(await ssoLinkOf(database.db, u.id)).toBeNull();
      expect(await linkSsoAccount(database.db, u, { issuer: IDP, subject: "sub-1" })).toBe("linked");
      const link = await ssoLinkOf(database.db, u.id);
      expect(link).toMatchObject({ issuer: IDP, subject: "sub-1" });
      expect(link?.linkedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Date.parse(link?.linkedAt ?? "")).toBeGreaterThan(Date.now() - 60_000);
      expect(await userIdOfSsoAccount(database.db, { issuer: IDP, subject: "sub-1" })).toBe(u.id);
      expect(await userIdOfSsoAccount(database.db, { issuer: IDP, subject: "SUB-1" })).toBeNull();
      expect((await listSsoLinks(database.db)).get(u.id)).toEqual(link);

      // Already tied (to this or any account): the row is left as it is.
      expect(await linkSsoAccount(database.db, u, { issuer: IDP, subject: "sub-1-new" })).toBe("changed");
      expect(await ssoLinkOf(database.db, u.id)).toEqual(link);
      const events = await auditOf("user.sso_link", u.id);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        userId: u.id,
        userEmail: "sso1@example.com",
        objectType: "user",
        outcome: "success",
        details: { issuer: IDP, subject: "sub-1" },
      });
    },
  );

  it("keeps one user per IdP account: a second user is not tied to it (and nothing is audited)", async () => {
    const a = await upsertUser(database.db, { email: "sso2a@example.com", name: "S2a", roles: ["viewer"] });
    const b = await upsertUser(database.db, { email: "sso2b@example.com", name: "S2b", roles: ["viewer"] });
    expect(await linkSsoAccount(database.db, a, { issuer: IDP, subject: "sub-2" })).toBe("linked");
    expect(await linkSsoAccount(database.db, b, { issuer: IDP, subject: "sub-2" })).toBe("taken");
    expect(await ssoLinkOf(database.db, b.id)).toBeNull();
    expect(await auditOf("user.sso_link", b.id)).toEqual([]);
    // Same subject at another issuer is another account.
    expect(await linkSsoAccount(database.db, b, { issuer: "https://other-idp.example.com", subject: "sub-2" })).toBe(
      "linked",
    );
  });

  it("two first sign-ins racing for one account: exactly one user is tied", async () => {
    const a = await upsertUser(database.db, { email: "sso3a@example.com", name: "S3a", roles: ["viewer"] });
    const b = await upsertUser(database.db, { email: "sso3b@example.com", name: "S3b", roles: ["viewer"] });
    const outcomes = await Promise.all(
      [a, b].map((u) => linkSsoAccount(database.db, u, { issuer: IDP, subject: "sub-3" })),
    );
    expect(outcomes.sort()).toEqual(["linked", "taken"]);
  });

  it("the database refuses a second user on one account and a half tie, whatever the code does", async () => {
    const a = await upsertUser(database.db, { email: "sso4@example.com", name: "S4", roles: ["viewer"] });
    // An account tied to another user by this test itself (the tests run in any order).
    const holder = await upsertUser(database.db, { email: "sso4-holder@example.com", name: "S4h", roles: ["viewer"] });
    expect(await linkSsoAccount(database.db, holder, { issuer: IDP, subject: "sub-4-held" })).toBe("linked");
    expect(
      await dbError(
        database.db.execute(
          sql`update users set sso_issuer = ${IDP}, sso_subject = 'sub-4-held', sso_linked_at = now() where id = ${a.id}`,
        ),
      ),
    ).toMatch(/users_sso_account/);
    expect(await dbError(database.db.execute(sql`update users set sso_issuer = ${IDP} where id = ${a.id}`))).toMatch(
      /users_sso_all_or_none/,
    );
    expect(
      await dbError(
        database.db.execute(sql`update users set sso_issuer = ${IDP}, sso_subject = 'sub-4' where id = ${a.id}`),
      ),
    ).toMatch(/users_sso_all_or_none/);
    expect(await ssoLinkOf(database.db, a.id)).toBeNull();
  });

  it(
    "`users add` on a tied user keeps the tie; unlinking clears it (audited with the actor) and the next sign-in " +
      "ties anew",
    async () => {
      const u = await upsertUser(database.db, { email: "sso5@example.com", name: "S5", roles: ["viewer"] });
      await linkSsoAccount(database.db, u, { issuer: IDP, subject: "sub-5-old" });
      await upsertUser(database.db, { email: "sso5@example.com", name: "S5 again", roles: ["treasurer"] });
      expect(await ssoLinkOf(database.db, u.id)).toMatchObject({ subject: "sub-5-old" });

      const r = await unlinkSsoAccount(database.db, " SSO5@example.com ", "users-cli:test");
      expect(r?.former).toMatchObject({ issuer: IDP, subject: "sub-5-old" });
      expect(await ssoLinkOf(database.db, u.id)).toBeNull();
      expect(await userIdOfSsoAccount(database.db, { issuer: IDP, subject: "sub-5-old" })).toBeNull();
      const events = await auditOf("user.sso_unlink", u.id);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        userId: null,
        userEmail: "users-cli:test",
        details: { email: "sso5@example.com", issuer: IDP, subject: "sub-5-old" },
      });

      // Nothing to unlink: no write, no event; an unknown user is told apart.
      expect(await unlinkSsoAccount(database.db, "sso5@example.com", "users-cli:test")).toEqual({ former: null });
      expect(await auditOf("user.sso_unlink", u.id)).toHaveLength(1);
      expect(await unlinkSsoAccount(database.db, "nobody@example.com", "users-cli:test")).toBeNull();

      expect(await linkSsoAccount(database.db, u, { issuer: IDP, subject: "sub-5-new" })).toBe("linked");
      expect(await ssoLinkOf(database.db, u.id)).toMatchObject({ subject: "sub-5-new" });
      expect(await auditOf("user.sso_link", u.id)).toHaveLength(2);
    },
  );
});

describe("audit log", () => {
  it("appends, lists newest first, narrows to companies", async () => {
    await appendAudit(database.db, {
      userId: null,
      userEmail: "a@x",
      action: "a.one",
      objectType: "x",
      companyId: C1,
      outcome: "success",
    });
    await appendAudit(database.db, {
      userId: null,
      userEmail: "a@x",
      action: "a.two",
      objectType: "x",
      companyId: C2,
      outcome: "success",
      idempotencyKey: "k",
    });
    const all = await listAudit(database.db, { companyIds: null });
    expect(all.map((e) => e.action).slice(0, 2)).toEqual(["a.two", "a.one"]);
    expect((await listAudit(database.db, { companyIds: [C1] })).map((e) => e.action)).toEqual(["a.one"]);
    expect(await listAudit(database.db, { companyIds: [] })).toEqual([]);
  });

  it("is append-only: UPDATE, DELETE and TRUNCATE are refused by the database", async () => {
    // drizzle wraps the driver error ("Failed query: ..."); the database's reason is its cause.
    const reason = (p: Promise<unknown>) =>
      p.then(
        () => "no error",
        (e: unknown) => (e instanceof Error && e.cause instanceof Error ? e.cause.message : String(e)),
      );
    // A row of its own: row triggers do not fire on an empty table (the tests run in any order).
    await appendAudit(database.db, {
      userId: null,
      userEmail: "append-only@example.com",
      action: "test.append_only",
      objectType: "test",
      outcome: "success",
    });
    expect(await reason(database.db.execute(sql`update audit_events set outcome = 'tampered'`))).toMatch(/append-only/);
    expect(await reason(database.db.execute(sql`delete from audit_events`))).toMatch(/append-only/);
    expect(await reason(database.db.execute(sql`truncate audit_events`))).toMatch(/append-only/);
    expect(await listAudit(database.db, { companyIds: null })).not.toHaveLength(0);
  });
});
