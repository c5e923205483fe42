/** Shared e2e data: the demo users (from the dashboard's seed) and their expected areas. */
import path from "node:path";
import { DEMO_PASSWORD } from "../lib/db/demo-users";

export type RoleKey = "viewer" | "treasurer" | "approver" | "approver2" | "admin" | "lead";

/** Each demo user, with the role label the shell shows for them. */
export const USERS: Record<RoleKey, { email: string; name: string; roles: string }> = {
  viewer: { email: "viewer@demo.local", name: "Vera Viewer", roles: "viewer" },
  treasurer: { email: "treasurer@demo.local", name: "Tomas Treasurer", roles: "treasurer" },
  approver: { email: "approver@demo.local", name: "Anna Approver", roles: "approver" },
  approver2: { email: "approver2@demo.local", name: "Aksel Approver", roles: "approver" },
  admin: { email: "admin@demo.local", name: "Ada Admin", roles: "admin" },
  lead: { email: "lead@demo.local", name: "Lina Lead", roles: "treasurer, approver" },
};

export const PASSWORD = DEMO_PASSWORD;

const READ_AREAS = ["overview", "accounts", "transactions", "reports", "payments", "reconciliation", "organization"];

/** The navigation each role must show, in order (DESIGN.md role table). */
export const EXPECTED_AREAS: Record<RoleKey, string[]> = {
  viewer: READ_AREAS,
  treasurer: READ_AREAS,
  approver: ["overview", "accounts", "transactions", "reports", "payments", "approvals", "reconciliation", "organization", "audit"],
  approver2: ["overview", "accounts", "transactions", "reports", "payments", "approvals", "reconciliation", "organization", "audit"],
  admin: ["overview", "accounts", "transactions", "reports", "payments", "reconciliation", "webhooks", "organization", "audit"],
  lead: ["overview", "accounts", "transactions", "reports", "payments", "approvals", "reconciliation", "organization", "audit"],
};

/**
 * Signed-in state per role. Kept per server port: a session is signed with the
 * secret of the server that issued it, so runs on other ports (another
 * checkout's or a parallel run's) must not overwrite it.
 */
export function storageState(role: RoleKey): string {
  return path.join("e2e", ".auth", process.env.E2E_PORT ?? "3210", `${role}.json`);
}

export const SCREENSHOTS = path.join("e2e", "screenshots");
