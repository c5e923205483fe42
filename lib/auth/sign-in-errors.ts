/**
 * Why a sign-in was refused, as the code that travels in `/login?error=<code>`
 * (next-auth puts a thrown error's message there), and the sentence a person
 * reads for it. One table for the password form and single
 * sign-on, used by the sign-in page; pure, so the browser bundle can import it.
 */

/** Prefix of the credentials error when sign-in is throttled: `throttled:<seconds>`. */
export const THROTTLED_PREFIX = "throttled:";

/** Refusals of a single sign-on (OpenID Connect) sign-in, decided by lib/auth/oidc-identity.ts. */
export const SSO_ERRORS = {
  /** The IdP sent no e-mail address (neither in the ID token nor at userinfo). */
  noEmail: "SsoNoEmail",
  /** The IdP sent an e-mail address without `email_verified: true`. */
  emailUnverified: "SsoEmailUnverified",
  /** No dashboard user has that e-mail address. */
  unknownUser: "SsoUnknownUser",
  /** The dashboard user is disabled. */
  disabled: "SsoDisabled",
  /** The dashboard user holds no (known) role. */
  noRole: "SsoNoRole",
  /** The dashboard user of that e-mail is tied to another IdP account (issuer, subject). */
  accountMismatch: "SsoAccountMismatch",
  /** The IdP account is tied to another dashboard user (the IdP changed the account's e-mail). */
  accountInUse: "SsoAccountInUse",
} as const;
export type SsoError = (typeof SSO_ERRORS)[keyof typeof SSO_ERRORS];

// A Map, not an object: the code comes from the URL, and "toString" must not find Object.prototype's.
const MESSAGES = new Map<string, string>(
  Object.entries({
    CredentialsSignin: "The e-mail or password is not correct.",
    AccessDenied: "This account has no access to the dashboard.",
    [SSO_ERRORS.noEmail]:
      "Your identity provider did not send an e-mail address, so the dashboard cannot tell who you are. " +
      "Ask your IT administrator to release the e-mail claim to the dashboard.",
    [SSO_ERRORS.emailUnverified]:
      "Your identity provider has not verified your e-mail address, so it cannot be used to sign in to the dashboard.",
    [SSO_ERRORS.unknownUser]:
      "Your single sign-on account is not set up for this dashboard. Ask a dashboard administrator to add you.",
    [SSO_ERRORS.disabled]: "Your dashboard account is disabled. Ask a dashboard administrator.",
    [SSO_ERRORS.noRole]: "Your dashboard account has no role yet. Ask a dashboard administrator to give you one.",
    [SSO_ERRORS.accountMismatch]:
      "This dashboard account is tied to a different single sign-on account than the one you used. " +
      "If your account at the identity provider was re-created, ask a dashboard administrator to unlink the old one.",
    [SSO_ERRORS.accountInUse]:
      "Your single sign-on account is already tied to another dashboard account. " +
      "Ask a dashboard administrator which dashboard account is yours.",
  }),
);

// next-auth's own codes for a failed round trip to the identity provider (see next-auth's error page).
const SSO_FAILURES = new Set([
  "OAuthSignin",
  "OAuthCallback",
  "OAuthCreateAccount",
  "OAuthAccountNotLinked",
  "Callback",
]);

/**
 * The message for a sign-in error code; unknown codes get a generic message
 * (the code comes from the URL, so it is never echoed).
 */
export function signInErrorMessage(code: string): string {
  if (code.startsWith(THROTTLED_PREFIX)) {
    const seconds = Number(code.slice(THROTTLED_PREFIX.length));
    if (Number.isFinite(seconds) && seconds > 0) {
      const minutes = Math.ceil(seconds / 60);
      const wait = seconds >= 60 ? `${minutes} minute${minutes === 1 ? "" : "s"}` : `${Math.ceil(seconds)} seconds`;
      return `Too many failed attempts for this account. Try again in ${wait}.`;
    }
  }
  const known = MESSAGES.get(code);
  if (known) return known;
  if (SSO_FAILURES.has(code))
    return "Single sign-on did not complete. Try again; if it keeps failing, contact your IT administrator.";
  return "Sign-in failed. Try again.";
}
