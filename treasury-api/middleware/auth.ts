/**
 * Bearer token authentication (docs/treasury-api.md#authentication-and-scopes; docs/architecture.md#one-service-both-forms).
 * Resolves the token to a `Caller` and checks the Form A tenant header on
 * every protected call. Runs before the rate limiter so the limit is per
 * OAuth client.
 */
import { sql } from "drizzle-orm";
import type { ApiForm, Scope } from "@treasury/contract/auth";
import type { AppEnv, Caller } from "../lib/context";
import { ApiError } from "../lib/errors";
import { hashSecret } from "../lib/secrets";
import { queryRows } from "../db/client";

interface TokenRow extends Record<string, unknown> {
  client_id: string;
  client_name: string;
  form: ApiForm;
  tenant_id: string;
  scopes: string[];
  write_approved: boolean;
  company_ids: string[];
}

/** Looks a bearer token up; null when unknown or expired. */
export async function lookupToken(db: AppEnv["Variables"]["db"], token: string): Promise<Caller | null> {
  const rows = await queryRows<TokenRow>(
    db,
    sql`
    select t.client_id::text as client_id, c.client_id as client_name, t.form, t.tenant_id::text as tenant_id,
           t.scopes::text[] as scopes, c.write_approved,
           case when t.form = 'B'
             then coalesce((select array_agg(cc.company_id::text order by cc.company_id) from
               oauth_client_companies cc where cc.client_id = t.client_id), '{}')
             else coalesce((select array_agg(co.id::text order by co.id) from companies co where co.tenant_id =
               t.tenant_id), '{}')
           end::text[] as company_ids
    from access_tokens t join oauth_clients c on c.id = t.client_id
    where t.token_hash = ${hashSecret(token)} and t.expires_at > now()`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    clientId: row.client_id,
    clientName: row.client_name,
    form: row.form,
    tenantId: row.tenant_id,
    scopes: row.scopes as Scope[],
    writeApproved: row.write_approved,
    companyIds: row.company_ids,
  };
}

/**
 * Resolves the caller from an `Authorization: Bearer` header. A present but
 * invalid or expired token, or a Form A tenant header mismatch, is returned as
 * an error (the gate throws it after counting the request for rate limits);
 * a missing header gives `{ caller: null }` and is left to the route
 * (`defineRoute` demands a caller on every protected route).
 */
export async function resolveCaller(
  db: AppEnv["Variables"]["db"],
  authorization: string | undefined,
  tenantHeader: string | undefined,
): Promise<{ caller: Caller | null; error: ApiError | null }> {
  if (!authorization || !/^bearer\s/i.test(authorization)) return { caller: null, error: null };
  const token = authorization.slice(7).trim();
  const caller = token.length > 0 && token.length <= 200 ? await lookupToken(db, token) : null;
  if (!caller) {
    return {
      caller: null,
      error: new ApiError(
        "authentication_failed",
        "The access token is invalid or expired; request a new token",
        {},
        { "WWW-Authenticate": 'Bearer error="invalid_token"' },
      ),
    };
  }
  if (caller.form === "A") {
    if (!tenantHeader)
      return {
        caller,
        error: new ApiError("validation_error", "X-Tenant-ID header is required for Form A tokens", {
          errors: { "X-Tenant-ID": ["is required"] },
        }),
      };
    if (tenantHeader.toLowerCase() !== caller.tenantId)
      return {
        caller,
        error: new ApiError("permission_denied", "X-Tenant-ID does not match the tenant bound to the token"),
      };
  }
  return { caller, error: null };
}
