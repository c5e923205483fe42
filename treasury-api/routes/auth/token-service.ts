/**
 * Issuing access tokens (docs/treasury-api.md#token; docs/architecture.md#tokens): client
 * authentication, scope negotiation and storage of the hashed token.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import { SCOPES, parseScopeList, type ApiForm } from "@treasury/contract/auth";
import { hasControlCharacters } from "@treasury/contract/common";
import type { Db } from "../../db/client";
import { accessTokens, oauthClients, oauthClientTenants } from "../../db/schema";
import { hashSecret, randomToken, verifySecret } from "../../lib/secrets";

/** An RFC 6749 §5.2 token error (or the spec's 403 for a tenant not allowed). */
export class TokenError extends Error {
  constructor(
    readonly status: 400 | 401 | 403,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * Reads client credentials from an HTTP Basic header (RFC 6749 §2.3.1: both
 * parts form-urlencoded) or from body fields. Using both is invalid_request.
 */
export function readCredentials(
  authorization: string | undefined,
  fields: { client_id?: string; client_secret?: string },
): ClientCredentials {
  let basic: ClientCredentials | null = null;
  if (authorization && /^basic\s/i.test(authorization)) {
    const decoded = Buffer.from(authorization.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw new TokenError(401, "invalid_client", "The Basic authorization header is malformed");
    try {
      basic = {
        clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " ")),
        clientSecret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " ")),
      };
    } catch {
      throw new TokenError(401, "invalid_client", "The Basic authorization header is malformed");
    }
    // No client id or secret holds a control character (and PostgreSQL text cannot hold U+0000).
    if (hasControlCharacters(basic.clientId + basic.clientSecret))
      throw new TokenError(401, "invalid_client", "The Basic authorization header is malformed");
  }
  const hasFields = fields.client_id !== undefined || fields.client_secret !== undefined;
  if (basic && hasFields)
    throw new TokenError(
      400,
      "invalid_request",
      "Send client credentials either in the Authorization header or in the body, not both",
    );
  if (basic) return basic;
  if (fields.client_id && fields.client_secret)
    return { clientId: fields.client_id, clientSecret: fields.client_secret };
  throw new TokenError(
    401,
    "invalid_client",
    "Client authentication is required (HTTP Basic or client_id and client_secret)",
  );
}

export interface IssuedToken {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  tenant_id?: string;
}

export type OAuthClient = typeof oauthClients.$inferSelect;

/**
 * The OAuth client whose id and secret these are.
 * @throws TokenError 401 invalid_client for an unknown client or a wrong secret.
 */
export async function authenticateClient(db: Db, creds: ClientCredentials): Promise<OAuthClient> {
  const [client] =
    creds.clientId.length <= 200
      ? await db.select().from(oauthClients).where(eq(oauthClients.clientId, creds.clientId))
      : [];
  if (!client || !verifySecret(creds.clientSecret, client.secretHash)) {
    throw new TokenError(401, "invalid_client", "Invalid client credentials");
  }
  return client;
}

/**
 * Issues a token of `form` to an authenticated client (`authenticateClient`).
 * @param tenantId Form A only: the tenant the token is bound to.
 * @throws TokenError for wrong form / bad scope (400), tenant not allowed (403).
 */
export async function issueToken(
  db: Db,
  form: ApiForm,
  client: OAuthClient,
  requestedScope: string | undefined,
  lifetimeSeconds: number,
  tenantId?: string,
): Promise<IssuedToken> {
  if (client.form !== form) {
    const other = client.form === "A" ? "/auth/tenant-token" : "/auth/token/";
    throw new TokenError(
      400,
      "unauthorized_client",
      `This client is registered for Form ${client.form}; request tokens at ${other}`,
    );
  }
  const requested = parseScopeList(requestedScope);
  const unknown = requested.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length)
    throw new TokenError(400, "invalid_scope", `Unknown scope: ${unknown.join(" ")}`, { scopes: unknown });
  const notAllowed = requested.filter((s) => !client.allowedScopes.includes(s));
  if (notAllowed.length)
    throw new TokenError(400, "invalid_scope", `Scope not allowed for this client: ${notAllowed.join(" ")}`, {
      scopes: notAllowed,
    });
  const scopes = requested.length ? requested : client.allowedScopes;

  let boundTenant = client.tenantId;
  if (form === "A") {
    if (!tenantId) throw new TokenError(400, "invalid_request", "tenant_id is required");
    const [allowed] = await db
      .select()
      .from(oauthClientTenants)
      .where(and(eq(oauthClientTenants.clientId, client.id), eq(oauthClientTenants.tenantId, tenantId)));
    if (!allowed) throw new TokenError(403, "permission_denied", "This tenant is not allowed for this partner client");
    boundTenant = tenantId;
  }
  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + lifetimeSeconds * 1000).toISOString();
  await db
    .insert(accessTokens)
    .values({ tokenHash: hashSecret(token), clientId: client.id, form, tenantId: boundTenant, scopes, expiresAt });
  if (Math.random() < 0.02)
    await db.delete(accessTokens).where(lt(accessTokens.expiresAt, sql`now() - interval '1 day'`));
  return {
    access_token: token,
    token_type: "Bearer",
    expires_in: lifetimeSeconds,
    scope: scopes.join(" "),
    ...(form === "A" ? { tenant_id: boundTenant } : {}),
  };
}
