/**
 * Fixed demo OAuth client credentials of the local Treasury API
 * (docs/treasury-api.md#authentication-and-scopes). DEMO ONLY — every secret here is public and
 * marked NOT-FOR-PRODUCTION; a production provider issues its own clients.
 *
 * The matrix (what each is for):
 * - `demo-treasury-b`: Form B, every scope, write approved, linked to the
 *   companies of "Nordlys Koncern" but NOT to "Polarlys Eiendom AS" (the
 *   tenant's company outside the koncern) — the dashboard's default client.
 * - `demo-readonly-b`: Form B, read scopes only, write not approved.
 * - `demo-partner-a`: Form A partner, every scope, write approved, allowed for
 *   the "Nordlys Group" tenant only (not "Fjord Holdings").
 * - `demo-fjord-b`: Form B client of the second tenant, linked to its company.
 */
import { SCOPES, type Scope } from "@treasury/contract/auth";

export interface DemoClientSpec {
  clientId: string;
  clientSecret: string;
  name: string;
  form: "A" | "B";
  /** Key of the tenant that owns the client ("nordlys" or "fjord"). */
  tenantKey: "nordlys" | "fjord";
  scopes: readonly Scope[];
  writeApproved: boolean;
  /** Form B: keys of the linked companies. */
  companyKeys: readonly string[];
  /** Form A: keys of the tenants it may request tokens for. */
  tenantKeys: readonly ("nordlys" | "fjord")[];
}

/** The read scopes of docs/treasury-api.md#authentication-and-scopes. */
export const READ_SCOPES: readonly Scope[] = [
  "read:ledger",
  "read:reporting",
  "read:forecast",
  "read:payments",
  "read:reconciliation",
];

/** The companies of "Nordlys Koncern" (see organization.ts). */
export const NORDLYS_KONCERN_COMPANY_KEYS = [
  "nordlys-holding",
  "nordlys-norge",
  "nordlys-sverige",
  "nordlys-danmark",
  "nordlys-suomi",
] as const;

export const DEMO_TREASURY_B: DemoClientSpec = {
  clientId: "demo-treasury-b",
  clientSecret: "demo-secret-treasury-b-NOT-FOR-PRODUCTION",
  name: "Demo treasury (Form B, all scopes)",
  form: "B",
  tenantKey: "nordlys",
  scopes: SCOPES,
  writeApproved: true,
  companyKeys: NORDLYS_KONCERN_COMPANY_KEYS,
  tenantKeys: [],
};

export const DEMO_READONLY_B: DemoClientSpec = {
  clientId: "demo-readonly-b",
  clientSecret: "demo-secret-readonly-b-NOT-FOR-PRODUCTION",
  name: "Demo read-only (Form B)",
  form: "B",
  tenantKey: "nordlys",
  scopes: READ_SCOPES,
  writeApproved: false,
  companyKeys: NORDLYS_KONCERN_COMPANY_KEYS,
  tenantKeys: [],
};

export const DEMO_PARTNER_A: DemoClientSpec = {
  clientId: "demo-partner-a",
  clientSecret: "demo-secret-partner-a-NOT-FOR-PRODUCTION",
  name: "Demo partner (Form A, Nordlys Group only)",
  form: "A",
  tenantKey: "nordlys",
  scopes: SCOPES,
  writeApproved: true,
  companyKeys: [],
  tenantKeys: ["nordlys"],
};

export const DEMO_FJORD_B: DemoClientSpec = {
  clientId: "demo-fjord-b",
  clientSecret: "demo-secret-fjord-b-NOT-FOR-PRODUCTION",
  name: "Demo Fjord Holdings (Form B)",
  form: "B",
  tenantKey: "fjord",
  scopes: SCOPES,
  writeApproved: true,
  companyKeys: ["fjord-holdings"],
  tenantKeys: [],
};

/** Every demo client, in the order above. */
export const DEMO_CLIENTS: readonly DemoClientSpec[] = [DEMO_TREASURY_B, DEMO_READONLY_B, DEMO_PARTNER_A, DEMO_FJORD_B];
