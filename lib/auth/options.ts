/**
 * next-auth v4 options: JWT sessions (no session table to keep), a
 * credentials provider backed by the dashboard database (with per-account
 * throttling of failed sign-ins, every attempt audited: ./sign-in-audit.ts) and an OpenID Connect provider when
 * `OIDC_ISSUER` is set. Who may sign in with single sign-on, and why roles
 * and companies always come from the dashboard DB, is the rule in
 * ./oidc-identity.ts. Built lazily because the configuration is read at run
 * time, not at build.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { NextAuthOptions, Profile } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { endSessions, findUserByEmail, findUserById, type DashboardUser } from "../db/users";
import { appendAudit } from "../db/audit";
import { linkSsoAccount, ssoLinkOf, userIdOfSsoAccount } from "../db/sso-accounts";
import { getConfig } from "../server/config";
import { dashboardDb } from "../server/db";
import { logger } from "../server/log";
import { admitSsoUser, checkSsoTie, mergeClaims, ssoIdentity, type Decision, type SsoIdentity } from "./oidc-identity";
import { THROTTLED_PREFIX } from "./sign-in-errors";
import { signInWithAudit } from "./sign-in-audit";

/** Absolute session lifetime from sign-in (`DASHBOARD_SESSION_HOURS`, default 12 h), in seconds. */
function sessionSeconds(): number {
  return getConfig().DASHBOARD_SESSION_HOURS * 60 * 60;
}

/** The provider id, so the callback URL is `<NEXTAUTH_URL>/api/auth/callback/oidc`. */
const OIDC = "oidc";

/** A single sign-on the rule admits; `link`: the user is not tied to an IdP account yet (first SSO sign-in). */
interface SsoSignIn {
  identity: SsoIdentity;
  user: DashboardUser;
  link: boolean;
}

/** A decision, and for a refused account tie what the server log needs to tell the accounts apart. */
type Resolution = Decision<SsoSignIn> & { context?: Record<string, unknown> };

/**
 * The dashboard user of a single sign-on's claims (the rule of
 * ./oidc-identity.ts, steps 1–4), or the refusal code that the sign-in page
 * explains. Reads only; `admitSso` writes the first tie.
 */
async function resolveSsoUser(claims: unknown): Promise<Resolution> {
  const identity = ssoIdentity(claims);
  if (!identity.ok) return identity;
  const db = await dashboardDb();
  const admitted = admitSsoUser(await findUserByEmail(db, identity.value.email));
  if (!admitted.ok) return admitted;
  const user = admitted.value;
  const tiedTo = await ssoLinkOf(db, user.id);
  const holderId = await userIdOfSsoAccount(db, identity.value);
  const tie = checkSsoTie(user, identity.value, tiedTo, holderId);
  if (!tie.ok)
    return {
      ...tie,
      context: {
        userId: user.id,
        tiedIssuer: tiedTo?.issuer,
        tiedSubject: tiedTo?.subject,
        tiedAt: tiedTo?.linkedAt,
        holderId,
      },
    };
  return { ok: true, value: { identity: identity.value, user, link: tie.value.link } };
}

/**
 * `resolveSsoUser`, and on a first single sign-on the tie of the user to this
 * IdP account (audited as `user.sso_link`). When a concurrent sign-in tied
 * the user or the account first, the decision is taken again on what is
 * stored now.
 * @throws Error("OAuthCallback") when the tie keeps changing under this
 *   sign-in (a race of three sign-ins at once): the sign-in page then says
 *   single sign-on did not complete, try again.
 */
async function admitSso(claims: unknown): Promise<Resolution> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const r = await resolveSsoUser(claims);
    if (!r.ok || !r.value.link) return r;
    const { identity, user } = r.value;
    const outcome = await linkSsoAccount(await dashboardDb(), user, identity);
    if (outcome === "linked") {
      logger.info(
        { userId: user.id, issuer: identity.issuer, subject: identity.subject },
        "single sign-on account tied to dashboard user",
      );
      return { ok: true, value: { ...r.value, link: false } };
    }
  }
  throw new Error("OAuthCallback");
}

/**
 * The claims of the ID token that next-auth has just validated: at run time
 * `tokens` is openid-client's TokenSet, whose `claims()` decodes it.
 * @throws Error when there is no ID token (an OpenID provider always sends one).
 */
function idTokenClaims(tokens: object): Record<string, unknown> {
  const claims: unknown = "claims" in tokens && typeof tokens.claims === "function" ? tokens.claims() : null;
  if (!claims || typeof claims !== "object") throw new Error("the token response has no ID token");
  return { ...claims };
}

/**
 * The OpenID Connect provider. The ID token is validated (signature, issuer,
 * audience, PKCE, state); its claims are completed from userinfo, because a
 * conforming IdP may put e-mail and name only there with the code flow.
 */
function oidcProvider(issuer: string, clientId: string, clientSecret: string): OAuthConfig<Record<string, unknown>> {
  return {
    id: OIDC,
    name: "Single sign-on",
    type: "oauth",
    wellKnown: `${issuer}/.well-known/openid-configuration`,
    issuer,
    clientId,
    clientSecret,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state"],
    userinfo: {
      async request({ tokens, client }): Promise<Profile> {
        const accessToken = tokens.access_token;
        const userinfo =
          client.issuer.metadata.userinfo_endpoint && accessToken ? await client.userinfo(accessToken) : null;
        return mergeClaims(idTokenClaims(tokens), userinfo);
      },
    },
    profile(claims) {
      return {
        id: String(claims.sub),
        email: typeof claims.email === "string" ? claims.email : null,
        name: typeof claims.name === "string" ? claims.name : null,
      };
    },
  };
}

/** What the server log records of a refused single sign-on: who, per the IdP (no tokens). */
function ssoClaimsForLog(profile: unknown): {
  issuer?: unknown;
  subject?: unknown;
  email?: unknown;
  emailVerified?: unknown;
} {
  if (!profile || typeof profile !== "object") return {};
  const p = profile as Record<string, unknown>;
  return { issuer: p.iss, subject: p.sub, email: p.email, emailVerified: p.email_verified };
}

/**
 * E-mail and password sign-in against the dashboard database, with per-account
 * throttling of failed attempts; successes, refusals and lockouts are audited (./sign-in-audit.ts).
 */
function credentialsProvider() {
  return CredentialsProvider({
    id: "credentials",
    name: "E-mail and password",
    credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
    async authorize(credentials) {
      const email = credentials?.email ?? "";
      const password = credentials?.password ?? "";
      if (!email || !password) return null;
      const result = await signInWithAudit(await dashboardDb(), email, password);
      if (result.ok) return { id: result.user.id, name: result.user.name, email: result.user.email };
      logger.warn({ account: email.toLowerCase(), reason: result.reason }, "sign-in refused");
      if (result.reason === "throttled") throw new Error(`${THROTTLED_PREFIX}${result.retryAfterSeconds}`);
      return null;
    },
  });
}

let cached: NextAuthOptions | undefined;

/** The options of this process (built once, on first use); @throws ConfigError for a bad configuration. */
export function getAuthOptions(): NextAuthOptions {
  if (cached) return cached;
  const config = getConfig();
  const providers: NextAuthOptions["providers"] = [credentialsProvider()];
  if (config.OIDC_ISSUER && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET) {
    providers.push(
      oidcProvider(config.OIDC_ISSUER.replace(/\/+$/, ""), config.OIDC_CLIENT_ID, config.OIDC_CLIENT_SECRET),
    );
  }
  cached = {
    secret: config.NEXTAUTH_SECRET,
    session: { strategy: "jwt", maxAge: sessionSeconds() },
    jwt: { maxAge: sessionSeconds() },
    pages: { signIn: "/login", error: "/login" },
    providers,
    callbacks: {
      async signIn({ account, profile }) {
        if (account?.provider !== OIDC) return true;
        const r = await admitSso(profile);
        if (!r.ok) {
          logger.warn({ reason: r.error, ...ssoClaimsForLog(profile), ...r.context }, "single sign-on refused");
          // next-auth sends the message to the error page: /login?error=<code>.
          throw new Error(r.error);
        }
        const { identity, user } = r.value;
        await appendAudit(await dashboardDb(), {
          userId: user.id,
          userEmail: user.email,
          action: "session.sign_in",
          objectType: "session",
          outcome: "success",
          details: { method: "oidc", issuer: identity.issuer, subject: identity.subject },
        });
        return true;
      },
      async jwt({ token, user, account, profile }) {
        if (account?.provider === OIDC) {
          // The session names the dashboard user, never the IdP's subject.
          const r = await resolveSsoUser(profile);
          if (!r.ok) throw new Error(r.error);
          token.sub = r.value.user.id;
          token.name = r.value.user.name;
          token.email = r.value.user.email;
        } else if (user) {
          token.sub = user.id;
        }
        if (account && token.sub) {
          // Signing in: the session lives under the user's current session version, from now.
          const signedIn = await findUserById(await dashboardDb(), token.sub);
          token.sv = signedIn?.sessionVersion ?? 0;
          token.authAt = Math.floor(Date.now() / 1000);
          // This sign-in's own id: a passkey step-up is bound to it (lib/bff/step-up.ts).
          token.sid = randomUUID();
          token.lastActive = token.authAt;
        }
        return token;
      },
      async session({ session, token }) {
        session.user = { id: token.sub ?? "", name: token.name ?? "", email: token.email ?? "" };
        session.sv = typeof token.sv === "number" ? token.sv : -1;
        session.authAt = typeof token.authAt === "number" ? token.authAt : 0;
        session.lastActive = typeof token.lastActive === "number" ? token.lastActive : session.authAt;
        return session;
      },
    },
    events: {
      // Signing out ends every session of the user, not only this browser's cookie: a copied JWT stops working too.
      async signOut({ token }) {
        if (token?.sub) await endSessions(await dashboardDb(), token.sub);
      },
    },
    logger: {
      error: (code, metadata) =>
        logger.error({ code, metadata: metadata instanceof Error ? metadata.message : undefined }, "next-auth error"),
      warn: (code) => logger.warn({ code }, "next-auth warning"),
      debug: () => undefined,
    },
  };
  return cached;
}
