/**
 * A real OpenID Connect provider on loopback for the single sign-on e2e:
 * panva's `oidc-provider` (certified OpenID Provider) with one
 * static confidential client, test accounts with their claims, and its
 * built-in login and consent pages (`devInteractions`: any password is
 * accepted — the provider's own password checking is not what is tested).
 *
 * It behaves as strictly as a production IdP would where it matters to the
 * dashboard: ID tokens carry only the standard identity claims (`sub`, times,
 * nonce — `conformIdTokenClaims`), so e-mail, name and custom claims reach
 * the relying party only through the userinfo endpoint; PKCE is required;
 * `iss` is returned in the authorization response (RFC 9207).
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type AccountClaims, type JWK } from "oidc-provider";

/**
 * One account of the test IdP. Its key in `accounts` is the login name typed
 * on the login page (the dev login page makes it the account id), and the
 * `sub` the provider sends unless `sub` is given.
 */
export interface IdpAccount {
  /**
   * The subject sent to the relying party, when it is not the login name. A
   * test changes it to model an account deleted and re-created under the same
   * login and e-mail (an IdP never reuses a `sub`); it is read at every sign-in.
   */
  sub?: string;
  email?: string;
  /** As sent; a string "true" (some IdPs) is possible too. */
  email_verified?: boolean | string;
  name?: string;
  /** Custom claims an IdP may send; the dashboard must not take roles from them. */
  roles?: string[];
  groups?: string[];
}

export interface RunningIdp {
  /** Issuer identifier, `http://127.0.0.1:<port>`. */
  issuer: string;
  /** Every userinfo response body the IdP sent, in order (what the relying party was told). */
  userinfo: Record<string, unknown>[];
  close(): Promise<void>;
}

export interface IdpOptions {
  clientId: string;
  clientSecret: string;
  /** The dashboard's next-auth callback, `<base>/api/auth/callback/oidc`. */
  redirectUri: string;
  accounts: Record<string, IdpAccount>;
}

/** Starts the provider on 127.0.0.1 and a free port. */
export async function startIdp(opts: IdpOptions): Promise<RunningIdp> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const userinfo: RunningIdp["userinfo"] = [];

  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const signingKey: JWK = { ...privateKey.export({ format: "jwk" }), kid: "e2e", use: "sig", alg: "RS256" };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    // Where a typical IdP puts them: identity claims under the standard scopes, roles and groups released with
    // `profile`.
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "roles", "groups"] },
    conformIdTokenClaims: true,
    pkce: { required: () => true },
    // Short lives, as a test needs them (and without them the provider prints a notice per artifact kind).
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, id) {
      const account = opts.accounts[id];
      if (!account) return undefined;
      const { sub = id, ...claims } = account;
      return {
        accountId: id,
        claims: (): AccountClaims => ({ ...claims, sub }),
      };
    },
  });
  // Records what the relying party is told at userinfo (`/me`), after the provider's scope filtering.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path === "/me" && ctx.status === 200 && ctx.body && typeof ctx.body === "object")
      userinfo.push({ ...(ctx.body as Record<string, unknown>) });
  });
  // A provider error is otherwise only rendered in the browser; the test log should name it.
  provider.on("server_error", (_ctx, err) => process.stderr.write(`oidc-provider: ${err.message}\n`));
  server.on("request", provider.callback());

  return {
    issuer,
    userinfo,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
