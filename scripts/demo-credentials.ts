/**
 * The demo OAuth client of the local treasury-api that the dashboard uses in
 * demo mode: `demo-treasury-b` (Form B, every scope, linked to the Nordlys
 * Koncern companies). Its secret is public demo data from the seed; it stays
 * on the server (environment of the Next process), never in client code.
 */
import { DEMO_TREASURY_B, type DemoClientSpec } from "@treasury/api/seed/demo-clients";

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  form: "A" | "B";
}

/** The dashboard's demo client. */
export function demoCredentials(spec: DemoClientSpec = DEMO_TREASURY_B): ClientCredentials {
  return { clientId: spec.clientId, clientSecret: spec.clientSecret, form: spec.form };
}
