/**
 * Inserts the demo OAuth clients (docs/architecture.md#data-model):
 * `oauth_clients` with hashed secrets, Form B company links and Form A tenant
 * links, from the fixed credentials of demo-clients.ts.
 */
import type { DbOrTx } from "../db/client";
import { oauthClientCompanies, oauthClientTenants, oauthClients } from "../db/schema";
import { hashSecret } from "../lib/secrets";
import { DEMO_CLIENTS, NORDLYS_KONCERN_COMPANY_KEYS, type DemoClientSpec } from "./demo-clients";
import type { SeedOrganization } from "./organization";
import { stableUuid } from "./prng";

/** A demo client as written to demo-fixtures.json. Secrets are the demo ones, never real ones. */
export interface DemoClientFixture {
  id: string;
  client_id: string;
  client_secret: string;
  name: string;
  form: "A" | "B";
  tenant_id: string;
  allowed_scopes: string[];
  write_approved: boolean;
  /** Form B: linked companies. */
  company_ids: string[];
  /** Form A: tenants it may request tokens for. */
  tenant_ids: string[];
}

function idOf(items: { key: string; id: string }[], key: string): string {
  const hit = items.find((i) => i.key === key);
  if (!hit) throw new Error(`demo clients: unknown key ${key}`);
  return hit.id;
}

/**
 * The companies a client is linked to: a client linked to the Nordlys Koncern
 * gets every koncern company, so a larger seed (size.ts) shows them all.
 */
function companyKeysOf(client: DemoClientSpec, org: SeedOrganization): readonly string[] {
  if (client.companyKeys !== NORDLYS_KONCERN_COMPANY_KEYS) return client.companyKeys;
  return org.companies.filter((c) => c.koncernKey === "nordlys-koncern").map((c) => c.key);
}

/** The demo clients resolved against `org` (pure). */
export function demoClientFixtures(org: SeedOrganization): DemoClientFixture[] {
  return DEMO_CLIENTS.map((c) => ({
    id: stableUuid(org.seed, `client:${c.clientId}`),
    client_id: c.clientId,
    client_secret: c.clientSecret,
    name: c.name,
    form: c.form,
    tenant_id: idOf(org.tenants, c.tenantKey),
    allowed_scopes: [...c.scopes],
    write_approved: c.writeApproved,
    company_ids: companyKeysOf(c, org).map((k) => idOf(org.companies, k)),
    tenant_ids: c.tenantKeys.map((k) => idOf(org.tenants, k)),
  }));
}

/** Inserts the clients and their links. @throws on a unique violation (clients already present). */
export async function insertDemoClients(db: DbOrTx, clients: DemoClientFixture[]): Promise<void> {
  await db.insert(oauthClients).values(
    clients.map((c) => ({
      id: c.id,
      clientId: c.client_id,
      secretHash: hashSecret(c.client_secret),
      name: c.name,
      form: c.form,
      tenantId: c.tenant_id,
      allowedScopes: c.allowed_scopes,
      writeApproved: c.write_approved,
    })),
  );
  const companyLinks = clients.flatMap((c) => c.company_ids.map((companyId) => ({ clientId: c.id, companyId })));
  if (companyLinks.length) await db.insert(oauthClientCompanies).values(companyLinks);
  const tenantLinks = clients.flatMap((c) => c.tenant_ids.map((tenantId) => ({ clientId: c.id, tenantId })));
  if (tenantLinks.length) await db.insert(oauthClientTenants).values(tenantLinks);
}
