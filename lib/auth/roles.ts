/**
 * Roles and permissions of the dashboard, one table that both the BFF and
 * the UI read. The BFF enforces these on the server; the UI only uses them
 * to hide what a user may not do. A user may hold several roles; a permission
 * is granted when any of the user's roles grants it.
 */
import { z } from "zod";

export const ROLES = ["viewer", "treasurer", "approver", "admin"] as const;
export const Role = z.enum(ROLES, { message: `must be one of ${ROLES.join(", ")}` });
export type Role = z.infer<typeof Role>;

const EVERYONE: readonly Role[] = ROLES;

/** The role table: which roles grant each permission, one row per permission. */
export const PERMISSION_ROLES = {
  /** Accounts, balances, coverage, intraday, transactions. */
  "ledger.read": EVERYONE,
  /** Cashflow, positions, forecast. */
  "reports.read": EVERYONE,
  /** Payment batches, instructions, status events. */
  "payments.read": EVERYONE,
  /** Reconciliation matches. */
  "reconciliation.read": EVERYONE,
  /** Companies and koncerner. */
  "organization.read": EVERYONE,
  /** Create and submit payment batches. */
  "payments.write": ["treasurer"],
  /** The approval queue (it exists to be decided on). */
  "approvals.read": ["approver"],
  /** Approve / reject approval requests. */
  "approvals.decide": ["approver"],
  /** Confirm / reject reconciliation matches. */
  "reconciliation.write": ["treasurer"],
  /** Manage webhook endpoints. */
  "webhooks.manage": ["admin"],
  /** Create / update companies and accounts. */
  "organization.manage": ["admin"],
  /** Upload bank statement files (ISO 20022 camt) where the API accepts them. */
  "statements.import": ["admin"],
  /** Approval policies and approver groups. */
  "policies.manage": ["admin"],
  /** Cashflow category rules (write, preview, reorder). */
  "categories.manage": ["admin"],
  /** Reconciliation auto-confirm rules (create, change, delete). */
  "reconciliation.rules.manage": ["admin"],
  /** Cash forecast manual lines, scenarios, recurring-payee switches and minimum-cash thresholds. */
  "forecast.manage": ["treasurer", "admin"],
  /** Read the dashboard's audit log. */
  "audit.read": ["approver", "admin"],
  /** Counterparties (payees) and their history. */
  "counterparties.read": EVERYONE,
  /** Create counterparties, change their bank details, import them, disable them. */
  "counterparties.manage": ["treasurer", "admin"],
  /** Verify / reject a pending counterparty (never one's own creation or bank-details change). */
  "counterparties.verify": ["treasurer", "admin"],
  /** One's own passkeys and step-up confirmations (profile page). */
  "profile.self": EVERYONE,
  /** Host-to-host bank connections and their health (read-only; docs/bank-channels.md#operations). */
  "bank_connections.read": ["treasurer", "admin"],
  /** Dashboard users: list, add (invitation link), change roles / companies, disable, reset password, remove passkeys. */
  "users.manage": ["admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSION_ROLES;

/** True when any of `roles` grants `permission`. */
export function can(roles: readonly Role[], permission: Permission): boolean {
  const allowed: readonly Role[] = PERMISSION_ROLES[permission];
  return roles.some((r) => allowed.includes(r));
}

/** Every permission granted by `roles`. */
export function permissionsOf(roles: readonly Role[]): Permission[] {
  return (Object.keys(PERMISSION_ROLES) as Permission[]).filter((p) => can(roles, p));
}

/** The areas of the app shell and the permission each needs to be shown. */
export const AREAS = [
  { key: "overview", label: "Overview", href: "/", permission: "ledger.read" },
  { key: "accounts", label: "Accounts", href: "/accounts", permission: "ledger.read" },
  { key: "transactions", label: "Transactions", href: "/transactions", permission: "ledger.read" },
  { key: "reports", label: "Reports", href: "/reports", permission: "reports.read" },
  { key: "payments", label: "Payments", href: "/payments", permission: "payments.read" },
  { key: "counterparties", label: "Counterparties", href: "/counterparties", permission: "counterparties.read" },
  { key: "approvals", label: "Approvals", href: "/approvals", permission: "approvals.read" },
  { key: "reconciliation", label: "Reconciliation", href: "/reconciliation", permission: "reconciliation.read" },
  { key: "webhooks", label: "Webhooks", href: "/webhooks", permission: "webhooks.manage" },
  { key: "organization", label: "Organization", href: "/organization", permission: "organization.read" },
  { key: "policies", label: "Approval policies", href: "/policies", permission: "policies.manage" },
  { key: "categories", label: "Cashflow categories", href: "/categories", permission: "categories.manage" },
  {
    key: "reconciliation-rules",
    label: "Auto-confirm rules",
    href: "/reconciliation-rules",
    permission: "reconciliation.rules.manage",
  },
  // Shown only when the API also advertises POST /statements (the shell checks the capability).
  { key: "statements", label: "Statements", href: "/statements", permission: "statements.import" },
  // Shown only when the API also advertises GET /bank-connections (the shell checks the capability).
  {
    key: "bank-connections",
    label: "Bank connections",
    href: "/bank-connections",
    permission: "bank_connections.read",
  },
  { key: "audit", label: "Audit", href: "/audit", permission: "audit.read" },
  { key: "users", label: "Users", href: "/users", permission: "users.manage" },
] as const satisfies readonly { key: string; label: string; href: string; permission: Permission }[];

export type Area = (typeof AREAS)[number];
export type AreaKey = Area["key"];

/** The areas `roles` may use, in navigation order. */
export function areasFor(roles: readonly Role[]): Area[] {
  return AREAS.filter((a) => can(roles, a.permission));
}

/** Keeps the known roles of an untrusted list (e.g. a stored JSON column). */
export function parseRoles(value: unknown): Role[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is Role => Role.safeParse(v).success);
}
