/**
 * Who a single sign-on (OpenID Connect) sign-in is, and whether the
 * dashboard admits them: roles and companies are the dashboard's to give, never the identity provider's.
 *
 * The rule: the identity provider proves who someone is; the dashboard
 * decides what they may do.
 * 1. The IdP must send an e-mail address and vouch for it
 *    (`email_verified: true`); an unverified address is refused, because
 *    anyone able to set that field at the IdP could otherwise become any
 *    dashboard user.
 * 2. That address (case-insensitive) must belong to an enabled dashboard
 *    user with at least one role — created beforehand with
 *    `npm run users -- add` (a password is optional). Nobody is created or
 *    let in with a default role on first sign-in.
 * 3. Roles and allowed companies come from that user row only. Claims such as
 *    `roles` or `groups` are ignored, so a claim-mapping mistake or an IdP
 *    administrator cannot grant payment or approval rights, and one person
 *    is one dashboard user (four-eyes) whichever way they sign in.
 * 4. The first successful single sign-on ties the dashboard user to that IdP
 *    account: issuer (`iss`) and subject (`sub`), which an IdP never reuses,
 *    unlike e-mail addresses. Afterwards a sign-in whose e-mail matches but
 *    whose account differs is refused (`SsoAccountMismatch`): an IdP that
 *    hands a leaver's address to a newcomer, or re-creates an account, does
 *    not pass the old dashboard access on. One IdP account is one dashboard
 *    user (`SsoAccountInUse` otherwise). A dashboard administrator clears the
 *    tie with `npm run users -- unlink-sso --email E` when the person is
 *    really the same (lib/db/sso-accounts.ts).
 *
 * Pure (no I/O): next-auth's callbacks in ./options.ts call these.
 */
import { z } from "zod";
import type { SsoAccount } from "../db/sso-accounts";
import type { DashboardUser } from "../db/users";
import { SSO_ERRORS, type SsoError } from "./sign-in-errors";

/** The claims this rule reads; every other claim is kept but not used. */
const IdentityClaims = z.object({
  sub: z.string().min(1),
  // Required in every ID token (Core §2) and checked by openid-client against
  // the discovered issuer; the account tie of step 4 is (iss, sub).
  iss: z.string().min(1),
  email: z.string().optional(),
  // A string "true" is what some IdPs (AWS Cognito among them) send.
  email_verified: z.union([z.boolean(), z.literal("true"), z.literal("false")]).optional(),
  name: z.string().optional(),
});

/** A verified single sign-on identity: the IdP account (issuer, subject) and its e-mail address (lower-cased). */
export interface SsoIdentity extends SsoAccount {
  email: string;
}

export type Decision<T> = { ok: true; value: T } | { ok: false; error: SsoError };

/**
 * Claims of one sign-in: the validated ID token's claims, completed by the
 * userinfo response (OpenID Connect Core §5.3: with the code flow an IdP may
 * put e-mail and name only there). ID token claims win where both have one.
 * @throws Error when userinfo names another subject (Core §5.3.2: its `sub`
 * must be the ID token's, else the response must not be used).
 */
export function mergeClaims(
  idToken: Record<string, unknown>,
  userinfo: Record<string, unknown> | null,
): Record<string, unknown> {
  if (!userinfo) return { ...idToken };
  if (userinfo.sub !== idToken.sub) throw new Error("userinfo sub differs from the ID token's sub");
  return { ...userinfo, ...idToken };
}

/**
 * The identity in `claims` (step 1 of the rule), or why there is none. Claims
 * without `sub` or `iss` count as no e-mail: openid-client has already
 * refused such an ID token, so this is a guard, not a case a person meets.
 */
export function ssoIdentity(claims: unknown): Decision<SsoIdentity> {
  const parsed = IdentityClaims.safeParse(claims);
  if (!parsed.success) return { ok: false, error: SSO_ERRORS.noEmail };
  const c = parsed.data;
  const email = c.email?.trim().toLowerCase() ?? "";
  if (!email) return { ok: false, error: SSO_ERRORS.noEmail };
  if (c.email_verified !== true && c.email_verified !== "true") return { ok: false, error: SSO_ERRORS.emailUnverified };
  return { ok: true, value: { issuer: c.iss, subject: c.sub, email } };
}

/** Whether the dashboard user found for the identity's e-mail may sign in (steps 2 and 3 of the rule). */
export function admitSsoUser(user: DashboardUser | null): Decision<DashboardUser> {
  if (!user) return { ok: false, error: SSO_ERRORS.unknownUser };
  if (user.disabled) return { ok: false, error: SSO_ERRORS.disabled };
  if (user.roles.length === 0) return { ok: false, error: SSO_ERRORS.noRole };
  return { ok: true, value: user };
}

/**
 * Whether two IdP accounts are the same: issuer and subject equal, exactly
 * (OpenID Connect Core §5.7: `sub` is unique per issuer, case-sensitive).
 */
export function sameSsoAccount(a: SsoAccount, b: SsoAccount): boolean {
  return a.issuer === b.issuer && a.subject === b.subject;
}

/**
 * Step 4 of the rule, for a user already admitted by `admitSsoUser`:
 * - `tiedTo`: the IdP account the user is tied to, or null;
 * - `holderId`: the id of the dashboard user tied to the identity's IdP
 *   account, or null.
 * @returns `{ link: true }` when the user is to be tied to this account now
 *   (first single sign-on), `{ link: false }` when already tied to it; else
 *   `SsoAccountMismatch` (tied to another account) or `SsoAccountInUse` (the
 *   account is tied to another user, e.g. after the IdP changed its e-mail).
 */
export function checkSsoTie(
  user: DashboardUser,
  identity: SsoIdentity,
  tiedTo: SsoAccount | null,
  holderId: string | null,
): Decision<{ link: boolean }> {
  if (tiedTo && !sameSsoAccount(tiedTo, identity)) return { ok: false, error: SSO_ERRORS.accountMismatch };
  if (holderId !== null && holderId !== user.id) return { ok: false, error: SSO_ERRORS.accountInUse };
  return { ok: true, value: { link: tiedTo === null } };
}
