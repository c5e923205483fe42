/**
 * Demo users created in demo mode: one per role, two approvers
 * for four-eyes. The passwords are public on purpose (they are in the
 * README) and only exist while the dashboard runs against the local
 * treasury-api's demo data.
 */
import type { Role } from "../auth/roles";
import type { DashboardDb } from "./client";
import { findUserByEmail, upsertUser, type DashboardUser } from "./users";

export interface DemoUser {
  email: string;
  name: string;
  password: string;
  roles: Role[];
  /** "all" companies, or only the first N companies of the demo data. */
  companies: "all" | { first: number };
}

export const DEMO_PASSWORD = "demo-password-2026";

export const DEMO_USERS: readonly DemoUser[] = [
  {
    email: "viewer@demo.local",
    name: "Vera Viewer",
    password: DEMO_PASSWORD,
    roles: ["viewer"],
    companies: { first: 2 },
  },
  {
    email: "treasurer@demo.local",
    name: "Tomas Treasurer",
    password: DEMO_PASSWORD,
    roles: ["treasurer"],
    companies: "all",
  },
  {
    email: "approver@demo.local",
    name: "Anna Approver",
    password: DEMO_PASSWORD,
    roles: ["approver"],
    companies: "all",
  },
  {
    email: "approver2@demo.local",
    name: "Aksel Approver",
    password: DEMO_PASSWORD,
    roles: ["approver"],
    companies: "all",
  },
  // A third approver, outside any approver group: shows an approval policy refusing who it does not name.
  {
    email: "approver3@demo.local",
    name: "Otto Approver",
    password: DEMO_PASSWORD,
    roles: ["approver"],
    companies: "all",
  },
  { email: "admin@demo.local", name: "Ada Admin", password: DEMO_PASSWORD, roles: ["admin"], companies: "all" },
  // Holds two roles, as a treasury lead often does: creates batches and approves others' — never her own (four-eyes).
  {
    email: "lead@demo.local",
    name: "Lina Lead",
    password: DEMO_PASSWORD,
    roles: ["treasurer", "approver"],
    companies: "all",
  },
];

/**
 * Creates (or resets) the demo users. `companyIds` are the demo companies the Treasury API lists now. A user limited
 * to the first N companies keeps the company ids chosen at its first seeding (chosen by id, once), so that a company
 * created later, whose name may sort first, changes nothing; a chosen company that is gone is dropped and the user
 * topped up from `companyIds`.
 */
export async function seedDemoUsers(db: DashboardDb, companyIds: readonly string[]): Promise<DashboardUser[]> {
  const out: DashboardUser[] = [];
  for (const u of DEMO_USERS) {
    let companies: string[] | null = null;
    if (u.companies !== "all") {
      const available = new Set(companyIds);
      const chosen = ((await findUserByEmail(db, u.email))?.companyIds ?? []).filter((id) => available.has(id));
      for (const id of companyIds) if (chosen.length < u.companies.first && !chosen.includes(id)) chosen.push(id);
      companies = chosen.slice(0, u.companies.first);
    }
    out.push(
      await upsertUser(db, {
        email: u.email,
        name: u.name,
        password: u.password,
        roles: u.roles,
        companyIds: companies,
      }),
    );
  }
  return out;
}
