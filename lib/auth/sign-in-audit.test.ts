import { describe, expect, it } from "vitest";
import { memoryDashboardDb } from "../db/test-db";
import { listAudit } from "../db/audit";
import { FREE_FAILURES, upsertUser } from "../db/users";
import { signInWithAudit } from "./sign-in-audit";

const database = memoryDashboardDb();

/** Each test makes its own account, so its audit entries and sign-in throttle are its own whatever ran before. */
const user = (email: string) =>
  upsertUser(database.db, { email, name: "Ann", password: "right-password-1", roles: ["viewer"] });

const events = async (email: string) =>
  (await listAudit(database.db, { companyIds: null, limit: 500 })).filter((e) => e.userEmail === email).reverse();

describe("signInWithAudit", () => {
  it("logs a success under the user", async () => {
    await user("ann@example.com");
    expect((await signInWithAudit(database.db, "Ann@Example.com", "right-password-1")).ok).toBe(true);
    const log = await events("ann@example.com");
    expect(log).toHaveLength(1);
    const [e] = log;
    expect(e).toMatchObject({ action: "session.sign_in", outcome: "success", objectType: "session" });
    expect(e?.userId).not.toBeNull();
  });

  it("logs a wrong password and an unknown account alike: no user id, reason invalid_credentials", async () => {
    const t0 = Date.UTC(2026, 0, 10, 8);
    await user("bo@example.com");
    await signInWithAudit(database.db, "bo@example.com", "wrong", t0);
    await signInWithAudit(database.db, "nobody@example.com", "wrong", t0);
    const wrong = (await events("bo@example.com")).at(-1);
    const unknown = (await events("nobody@example.com")).at(-1);
    for (const e of [wrong, unknown]) {
      expect(e).toMatchObject({
        action: "session.sign_in",
        outcome: "refused",
        userId: null,
        details: { reason: "invalid_credentials", failures: 1 },
      });
    }
    expect(Object.keys(wrong?.details ?? {}).sort()).toEqual(Object.keys(unknown?.details ?? {}).sort());
  });

  it("logs the lockout once, then each attempt while locked with reason locked", async () => {
    const t0 = Date.UTC(2026, 0, 11, 8);
    const who = "locked@example.com";
    for (let i = 0; i < FREE_FAILURES; i++) await signInWithAudit(database.db, who, "x", t0);
    expect(await signInWithAudit(database.db, who, "x", t0 + 1000)).toMatchObject({ reason: "throttled" });
    const log = await events(who);
    expect(log.map((e) => `${e.action}/${e.outcome}/${String(e.details.reason)}`)).toEqual([
      ...Array.from({ length: FREE_FAILURES }, () => "session.sign_in/refused/invalid_credentials"),
      "session.lockout/locked/too_many_failures",
      "session.sign_in/refused/locked",
    ]);
    expect(log[FREE_FAILURES]?.details).toMatchObject({
      failures: FREE_FAILURES,
      locked_until: new Date(t0 + 30_000).toISOString(),
    });
    expect(log.at(-1)?.details).toMatchObject({ retry_after_seconds: 29 });
  });
});
