/**
 * next-auth v4 options (issue 4 §3; DESIGN.md stack): JWT sessions, a
 * credentials provider backed by the dashboard database (with per-account
 * throttling of failed sign-ins) and an OIDC provider when `OIDC_ISSUER` is
 * set. An OIDC sign-in is accepted only for an enabled dashboard user with
 * the same e-mail, so roles and companies always come from the dashboard DB.
 * Built lazily because the configuration is read at run time, not at build.
 */
import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { findUserByEmail, verifyCredentials } from "../db/users";
import { appendAudit } from "../db/audit";
import { getConfig } from "../bff/config";
import { dashboardDb } from "../bff/db";
import { logger } from "../bff/log";

/** Session lifetime: a working day. */
const SESSION_SECONDS = 8 * 60 * 60;

/** Prefix of the error message when sign-in is throttled: `throttled:<seconds>`. */
export const THROTTLED_PREFIX = "throttled:";

let cached: NextAuthOptions | undefined;

export function getAuthOptions(): NextAuthOptions {
  if (cached) return cached;
  const config = getConfig();
  const providers: NextAuthOptions["providers"] = [
    CredentialsProvider({
      id: "credentials",
      name: "E-mail and password",
      credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials) {
        const email = credentials?.email ?? "";
        const password = credentials?.password ?? "";
        if (!email || !password) return null;
        const db = await dashboardDb();
        const result = await verifyCredentials(db, email, password);
        if (result.ok) {
          await appendAudit(db, { userId: result.user.id, userEmail: result.user.email, action: "session.sign_in", objectType: "session", outcome: "success" });
          return { id: result.user.id, name: result.user.name, email: result.user.email };
        }
        logger.warn({ account: email.toLowerCase(), reason: result.reason }, "sign-in refused");
        if (result.reason === "throttled") throw new Error(`${THROTTLED_PREFIX}${result.retryAfterSeconds}`);
        return null;
      },
    }),
  ];
  if (config.OIDC_ISSUER && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET) {
    const issuer = config.OIDC_ISSUER.replace(/\/+$/, "");
    providers.push({
      id: "oidc",
      name: "Single sign-on",
      type: "oauth",
      wellKnown: `${issuer}/.well-known/openid-configuration`,
      issuer,
      clientId: config.OIDC_CLIENT_ID,
      clientSecret: config.OIDC_CLIENT_SECRET,
      authorization: { params: { scope: "openid email profile" } },
      idToken: true,
      checks: ["pkce", "state"],
      profile(profile: { sub: string; email?: string; name?: string }) {
        return { id: profile.sub, email: profile.email ?? "", name: profile.name ?? profile.email ?? profile.sub };
      },
    });
  }
  cached = {
    secret: config.NEXTAUTH_SECRET,
    session: { strategy: "jwt", maxAge: SESSION_SECONDS },
    jwt: { maxAge: SESSION_SECONDS },
    pages: { signIn: "/login", error: "/login" },
    providers,
    callbacks: {
      async signIn({ user, account }) {
        if (account?.provider !== "oidc") return true;
        const dbUser = user.email ? await findUserByEmail(await dashboardDb(), user.email) : null;
        return Boolean(dbUser && !dbUser.disabled);
      },
      async jwt({ token, user, account }) {
        if (user && account?.provider === "oidc" && user.email) {
          const dbUser = await findUserByEmail(await dashboardDb(), user.email);
          if (dbUser) {
            token.sub = dbUser.id;
            token.name = dbUser.name;
          }
        } else if (user) {
          token.sub = user.id;
        }
        return token;
      },
      async session({ session, token }) {
        session.user = { id: token.sub ?? "", name: token.name ?? "", email: token.email ?? "" };
        return session;
      },
    },
    logger: {
      error: (code, metadata) => logger.error({ code, metadata: metadata instanceof Error ? metadata.message : undefined }, "next-auth error"),
      warn: (code) => logger.warn({ code }, "next-auth warning"),
      debug: () => undefined,
    },
  };
  return cached;
}
