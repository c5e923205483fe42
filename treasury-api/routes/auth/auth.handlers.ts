/**
 * Token endpoints (docs/treasury-api.md#token): POST /auth/token/ (Form B,
 * form-urlencoded) and POST /auth/tenant-token (Form A, JSON). Errors follow
 * RFC 6749 §5.2 and carry the spec's message/details; responses are no-store.
 *
 * Rate limits (docs/treasury-api.md#limits; docs/architecture.md#rate-limits): the gate leaves these two
 * routes alone. A request whose client authenticates counts against that
 * client's window, as its API calls do; one that does not (bad or missing
 * credentials, malformed) counts in the larger per-address window of
 * unauthenticated requests, which a correctly authenticated token request
 * never touches — so failures from a shared egress address cannot block
 * token issuance. A 429 here is no-store like every token response.
 */
import type { Context } from "hono";
import { FormATokenRequest, FormBTokenRequest } from "@treasury/contract/auth";
import { addressRateLimit } from "../../config";
import { clientAddress, throttle } from "../../middleware/gate";
import type { AppEnv } from "../../lib/context";
import { isUuid } from "../../lib/validation";
import {
  TokenError,
  authenticateClient,
  issueToken,
  readCredentials,
  type ClientCredentials,
  type OAuthClient,
} from "./token-service";

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

function tokenErrorResponse(c: Context<AppEnv>, err: TokenError): Response {
  const body =
    err.status === 403
      ? { error: "permission_denied", message: err.message, details: err.details }
      : { error: err.code, error_description: err.message, message: err.message, details: err.details };
  const headers: Record<string, string> = { ...NO_STORE };
  if (err.status === 401) headers["WWW-Authenticate"] = 'Basic realm="treasury"';
  return c.json(body, err.status, headers);
}

/**
 * Runs a token request. `run` gets `authenticate`, which checks the client
 * credentials and counts the request against that client (429 when its
 * window is full); a request that fails before it authenticated counts
 * against the remote address instead (429 when that window is full).
 */
async function handle(
  c: Context<AppEnv>,
  run: (authenticate: (creds: ClientCredentials) => Promise<OAuthClient>) => Promise<object>,
): Promise<Response> {
  let authenticated = false;
  const authenticate = async (creds: ClientCredentials) => {
    const client = await authenticateClient(c.get("db"), creds);
    authenticated = true;
    await throttle(c, `client:${client.id}`, c.get("config").rateLimit, NO_STORE);
    return client;
  };
  try {
    return c.json(await run(authenticate), 200, NO_STORE);
  } catch (err) {
    if (!authenticated) await throttle(c, `ip:${clientAddress(c)}`, addressRateLimit(c.get("config")), NO_STORE);
    if (err instanceof TokenError) return tokenErrorResponse(c, err);
    throw err;
  }
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** `POST /auth/token/`: a Form B token for client credentials, from a form-urlencoded body. */
export const formBToken = (c: Context<AppEnv>): Promise<Response> =>
  handle(c, async (authenticate) => {
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/x-www-form-urlencoded\b/i.test(type))
      throw new TokenError(400, "invalid_request", "The token request must be application/x-www-form-urlencoded");
    const form = new URLSearchParams(await c.req.text());
    for (const [k] of form)
      if (form.getAll(k).length > 1)
        throw new TokenError(400, "invalid_request", `Parameter ${k} was sent more than once`);
    const fields = Object.fromEntries(form) as Record<string, string>;
    if (!fields.grant_type)
      throw new TokenError(400, "invalid_request", "grant_type is required", {
        errors: { grant_type: ["is required"] },
      });
    if (fields.grant_type !== "client_credentials")
      throw new TokenError(400, "unsupported_grant_type", "Only grant_type=client_credentials is supported");
    const parsed = FormBTokenRequest.safeParse(fields);
    if (!parsed.success)
      throw new TokenError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Malformed token request");
    const client = await authenticate(readCredentials(c.req.header("authorization"), parsed.data));
    return issueToken(c.get("db"), "B", client, parsed.data.scope, c.get("config").tokenLifetimeSeconds);
  });

/** `POST /auth/tenant-token`: a Form A token bound to one tenant, from a JSON body. */
export const formAToken = (c: Context<AppEnv>): Promise<Response> =>
  handle(c, async (authenticate) => {
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/json\b/i.test(type))
      throw new TokenError(400, "invalid_request", "The tenant token request must be application/json");
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      throw new TokenError(400, "invalid_request", "The request body is not valid JSON");
    }
    if (body === null || typeof body !== "object" || Array.isArray(body))
      throw new TokenError(400, "invalid_request", "The request body must be a JSON object");
    const raw = body as Record<string, unknown>;
    if (raw.grant_type !== undefined && raw.grant_type !== "client_credentials")
      throw new TokenError(400, "unsupported_grant_type", "Only grant_type=client_credentials is supported");
    const tenant = str(raw.tenant_id);
    if (!tenant || !isUuid(tenant))
      throw new TokenError(400, "invalid_request", "tenant_id is required and must be a UUID", {
        errors: { tenant_id: ["must be a UUID"] },
      });
    const parsed = FormATokenRequest.safeParse(raw);
    if (!parsed.success)
      throw new TokenError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Malformed token request");
    const client = await authenticate(readCredentials(c.req.header("authorization"), parsed.data));
    return issueToken(
      c.get("db"),
      "A",
      client,
      parsed.data.scope,
      c.get("config").tokenLifetimeSeconds,
      tenant.toLowerCase(),
    );
  });
