import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDashboardDb, type DashboardDatabase } from "../db/client";
import { upsertUser } from "../db/users";
import {
  RuleInput,
  createRule,
  deleteRule,
  forwardDecision,
  fourEyesRefusal,
  ineligibility,
  listRules,
  moveRule,
  listGroups,
  saveGroup,
  updateRule,
} from "./store";

describe("fourEyesRefusal", () => {
  const user = { id: "3f0c9a1e-0000-4000-8000-000000000001", email: "Kari@Test.Local" };
  it("refuses the batch's initiator, by id or (older batches) e-mail, whatever the case", () => {
    expect(fourEyesRefusal(user.id, user)).toMatch(/four-eyes/);
    expect(fourEyesRefusal(user.id.toUpperCase(), user)).toMatch(/four-eyes/);
    expect(fourEyesRefusal("kari@test.local", user)).toMatch(/another approver/);
  });
  it("lets anyone else approve, and a batch without an initiator (an API client's) is no one's own", () => {
    expect(fourEyesRefusal("3f0c9a1e-0000-4000-8000-000000000002", user)).toBeNull();
    expect(fourEyesRefusal("other@test.local", user)).toBeNull();
    expect(fourEyesRefusal(null, user)).toBeNull();
    expect(fourEyesRefusal(undefined, user)).toBeNull();
    expect(fourEyesRefusal("", user)).toBeNull();
  });
});

describe("forwardDecision", () => {
  const rec = (...f: boolean[]) => f.map((forward) => ({ forward }));
  it("API 1, policy 3: holds the first two, forwards the third, never a fourth", () => {
    expect(forwardDecision(rec(), 1, 3)).toBe(false);
    expect(forwardDecision(rec(false), 1, 3)).toBe(false);
    expect(forwardDecision(rec(false, false), 1, 3)).toBe(true);
    expect(forwardDecision(rec(false, false, true), 1, 3)).toBe(false);
  });
  it("API 2, policy 3: forwards the first, holds the second, forwards the third", () => {
    expect(forwardDecision(rec(), 2, 3)).toBe(true);
    expect(forwardDecision(rec(true), 2, 3)).toBe(false);
    expect(forwardDecision(rec(true, false), 2, 3)).toBe(true);
  });
  it("policy at or below the API's count: every approval is forwarded until the API's count", () => {
    expect(forwardDecision(rec(), 2, 1)).toBe(true);
    expect(forwardDecision(rec(true), 2, 1)).toBe(true);
    expect(forwardDecision(rec(true, true), 2, 1)).toBe(false);
  });
  it("counts approvals the API has that the dashboard did not record", () => {
    expect(forwardDecision(rec(), 2, 3, 1)).toBe(false);
    expect(forwardDecision(rec(false), 2, 3, 1)).toBe(true);
  });
});

describe("RuleInput", () => {
  const ok = { name: "Large", required_approvals: 2, eligible_roles: ["approver"] };
  it("accepts a minimal rule and fills the rest with 'any'", () => {
    expect(RuleInput.parse(ok)).toMatchObject({ currency: null, min_amount: null, risk: null, eligible_group_ids: [] });
  });
  it("names the bad fields", () => {
    const fields = (v: unknown) => {
      const r = RuleInput.safeParse(v);
      return r.success ? [] : r.error.issues.map((i) => i.path.join("."));
    };
    expect(fields({ ...ok, currency: "nok" })).toEqual(["currency"]);
    expect(fields({ ...ok, min_amount: "1e5" })).toEqual(["min_amount"]);
    expect(fields({ ...ok, min_amount: "500", max_amount: "100" })).toEqual(["max_amount"]);
    expect(fields({ ...ok, required_approvals: 11 })).toEqual(["required_approvals"]);
    expect(fields({ ...ok, eligible_roles: [] })).toEqual(["eligible_roles"]);
    expect(fields({ ...ok, risk: { mode: "kinds", kinds: ["nope"] } })).toEqual(["risk.kinds.0"]);
    expect(fields({ ...ok, extra: 1 })).toEqual([""]);
  });
});

describe("rules and groups in the dashboard DB", () => {
  let database: DashboardDatabase;
  beforeAll(async () => {
    process.env.DASHBOARD_BCRYPT_COST = "4";
    database = await openDashboardDb({ dataDir: "memory" });
  });
  afterAll(async () => {
    await database.close();
  });

  it("starts with the default rules: EUR 100,000 → 2, else 1", async () => {
    expect((await listRules(database.db)).map((r) => [r.position, r.name, r.min_amount, r.required_approvals])).toEqual(
      [
        [1, "Large payments", "100000", 2],
        [2, "Default", null, 1],
      ],
    );
  });

  it("adds, moves, updates and deletes, keeping positions 1..n", async () => {
    const db = database.db;
    const a = await createRule(db, RuleInput.parse({ name: "A", required_approvals: 3, eligible_roles: ["admin"] }));
    expect(a.position).toBe(3);
    const moved = await moveRule(db, a.id, 1);
    expect(moved?.after.map((r) => r.name)).toEqual(["A", "Large payments", "Default"]);
    const upd = await updateRule(
      db,
      a.id,
      RuleInput.parse({ name: "A2", required_approvals: 4, eligible_roles: ["approver"] }),
    );
    expect(upd?.before.name).toBe("A");
    expect(upd?.after).toMatchObject({ name: "A2", position: 1, required_approvals: 4 });
    expect(await deleteRule(db, a.id)).toMatchObject({ name: "A2" });
    expect((await listRules(db)).map((r) => [r.position, r.name])).toEqual([
      [1, "Large payments"],
      [2, "Default"],
    ]);
    expect(await moveRule(db, a.id, 1)).toBeNull();
  });

  it("groups: unique names, members, eligibility", async () => {
    const u = await upsertUser(database.db, {
      email: "m@x.test",
      name: "M",
      password: "a-long-password-1",
      roles: ["approver"],
    });
    const g = await saveGroup(database.db, { name: "Leads", user_ids: [u.id] });
    await expect(saveGroup(database.db, { name: "leads", user_ids: [] })).rejects.toMatchObject({ field: "name" });
    // A member that is no dashboard user is refused by its position, and the group is left as it was.
    const stranger = "00000000-0000-4000-8000-000000000001";
    for (const [input, at] of [
      [{ name: "Others", user_ids: [u.id, stranger] }, undefined],
      [{ name: "Leads renamed", user_ids: [stranger] }, g.after.id],
    ] as const) {
      await expect(saveGroup(database.db, { ...input, user_ids: [...input.user_ids] }, at)).rejects.toMatchObject({
        field: `user_ids[${input.user_ids.indexOf(stranger)}]`,
        message: "is not a dashboard user",
      });
    }
    expect((await listGroups(database.db)).map((x) => [x.name, x.user_ids])).toEqual([["Leads", [u.id]]]);
    const policy = {
      explanation: "Rule 1",
      eligible: { roles: [], groups: [{ id: g.after.id, name: "Leads", userIds: [u.id] }] },
    };
    expect(ineligibility(policy, { id: u.id, roles: ["approver"] })).toBeNull();
    expect(ineligibility(policy, { id: "other", roles: ["approver"] })).toBe(
      "Only Leads may approve this batch (Rule 1).",
    );
  });
});
