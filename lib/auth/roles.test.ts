import { describe, expect, it } from "vitest";
import { Role, areasFor, can, parseRoles, permissionsOf } from "./roles";

describe("role table", () => {
  it("matches the design's permissions", () => {
    expect(can(["viewer"], "ledger.read")).toBe(true);
    expect(can(["viewer"], "payments.write")).toBe(false);
    expect(can(["treasurer"], "payments.write")).toBe(true);
    expect(can(["treasurer"], "reconciliation.write")).toBe(true);
    expect(can(["treasurer"], "approvals.decide")).toBe(false);
    expect(can(["approver"], "approvals.decide")).toBe(true);
    expect(can(["approver"], "audit.read")).toBe(true);
    expect(can(["admin"], "webhooks.manage")).toBe(true);
    expect(can(["admin"], "organization.manage")).toBe(true);
    expect(can(["admin"], "payments.write")).toBe(false);
    expect(can([], "ledger.read")).toBe(false);
  });

  it("counterparties: everyone reads, treasurer and admin manage and verify (never their own change)", () => {
    expect(can(["viewer"], "counterparties.read")).toBe(true);
    for (const p of ["counterparties.manage", "counterparties.verify"] as const) {
      expect(can(["treasurer"], p)).toBe(true);
      expect(can(["admin"], p)).toBe(true);
      expect(can(["approver"], p)).toBe(false);
      expect(can(["viewer"], p)).toBe(false);
    }
  });

  it("several roles add up; unknown roles are dropped", () => {
    expect(permissionsOf(["treasurer", "approver"])).toEqual(
      expect.arrayContaining(["payments.write", "approvals.decide", "audit.read"]),
    );
    // Exactly the union: a viewer adds nothing to a treasurer, and nothing outside either role sneaks in.
    expect(permissionsOf(["viewer"])).toEqual([
      "ledger.read",
      "reports.read",
      "payments.read",
      "reconciliation.read",
      "organization.read",
      "counterparties.read",
      "profile.self",
    ]);
    expect(permissionsOf(["admin"])).toContain("users.manage");
    expect(permissionsOf(["treasurer", "approver"])).not.toContain("users.manage");
    expect(permissionsOf(["viewer", "treasurer"])).toEqual(permissionsOf(["treasurer"]));
    expect(permissionsOf(["treasurer"])).not.toContain("approvals.decide");
    expect(permissionsOf([])).toEqual([]);
    expect(parseRoles(["viewer", "root", 3])).toEqual(["viewer"]);
    expect(parseRoles("admin")).toEqual([]);
  });

  it(
    "counterparties: everyone reads, treasurers and admins create and verify (never their own: " +
      "lib/counterparties)",
    () => {
      for (const r of ["viewer", "treasurer", "approver", "admin"] as const)
        expect(can([r], "counterparties.read")).toBe(true);
      for (const p of ["counterparties.manage", "counterparties.verify"] as const) {
        expect([can(["treasurer"], p), can(["admin"], p), can(["approver"], p), can(["viewer"], p)]).toEqual([
          true,
          true,
          false,
          false,
        ]);
      }
    },
  );

  it("navigation shows only the role's areas", () => {
    expect(areasFor(["viewer"]).map((a) => a.key)).toEqual([
      "overview",
      "accounts",
      "transactions",
      "reports",
      "payments",
      "counterparties",
      "reconciliation",
      "organization",
    ]);
    expect(areasFor(["admin"]).map((a) => a.key)).toContain("webhooks");
    expect(areasFor(["approver"]).map((a) => a.key)).toContain("approvals");
  });

  it("an unknown role is refused with a message listing the roles", () => {
    const r = Role.safeParse("root");
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe("must be one of viewer, treasurer, approver, admin");
  });
});
