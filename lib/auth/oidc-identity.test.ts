import { describe, expect, it } from "vitest";
import type { DashboardUser } from "../db/users";
import { admitSsoUser, checkSsoTie, mergeClaims, sameSsoAccount, ssoIdentity, type SsoIdentity } from "./oidc-identity";
import { SSO_ERRORS, signInErrorMessage } from "./sign-in-errors";

const USER: DashboardUser = {
  id: "6a1f0f0e-6a6b-4a49-9d7e-1a3c5b7d9e0f",
  email: "kari@example.com",
  name: "Kari",
  roles: ["treasurer"],
  companyIds: null,
  disabled: false,
};

describe("mergeClaims", () => {
  it("completes the ID token with userinfo; the ID token wins where both have a claim", () => {
    expect(
      mergeClaims(
        { sub: "s1", iss: "https://idp", email: "id@x.com" },
        { sub: "s1", email: "ui@x.com", email_verified: true, name: "N" },
      ),
    ).toEqual({
      sub: "s1",
      iss: "https://idp",
      email: "id@x.com",
      email_verified: true,
      name: "N",
    });
  });
  it("uses the ID token alone when there is no userinfo", () => {
    expect(mergeClaims({ sub: "s1" }, null)).toEqual({ sub: "s1" });
  });
  it("refuses a userinfo response about another subject", () => {
    expect(() => mergeClaims({ sub: "s1" }, { sub: "s2", email: "other@x.com" })).toThrow(/sub/);
    expect(() => mergeClaims({ sub: "s1" }, { email: "nosub@x.com" })).toThrow(/sub/);
  });
});

describe("ssoIdentity", () => {
  it("takes a verified e-mail, lower-cased and trimmed, with the subject and issuer", () => {
    expect(ssoIdentity({ sub: "s1", iss: "https://idp", email: " Kari@Example.COM ", email_verified: true })).toEqual({
      ok: true,
      value: { issuer: "https://idp", subject: "s1", email: "kari@example.com" },
    });
  });
  it('accepts email_verified sent as the string "true"', () => {
    expect(ssoIdentity({ sub: "s1", iss: "https://idp", email: "k@x.com", email_verified: "true" }).ok).toBe(true);
  });
  it.each([
    ["false", { sub: "s1", iss: "https://idp", email: "admin@x.com", email_verified: false }],
    ['"false"', { sub: "s1", iss: "https://idp", email: "admin@x.com", email_verified: "false" }],
    ["missing", { sub: "s1", iss: "https://idp", email: "admin@x.com" }],
  ])("refuses an e-mail whose email_verified is %s", (_label, claims) => {
    expect(ssoIdentity(claims)).toEqual({ ok: false, error: SSO_ERRORS.emailUnverified });
  });
  it.each([
    ["no e-mail claim", { sub: "s1", iss: "https://idp", email_verified: true }],
    ["an empty e-mail", { sub: "s1", iss: "https://idp", email: "  ", email_verified: true }],
    ["an e-mail that is not a string", { sub: "s1", iss: "https://idp", email: ["a@x.com"], email_verified: true }],
    ["no subject", { iss: "https://idp", email: "a@x.com", email_verified: true }],
    ["an empty subject", { sub: "", iss: "https://idp", email: "a@x.com", email_verified: true }],
    // The account tie is (iss, sub): without an issuer there is nothing to tie to.
    ["no issuer", { sub: "s1", email: "a@x.com", email_verified: true }],
    ["an empty issuer", { sub: "s1", iss: "", email: "a@x.com", email_verified: true }],
    ["no claims", null],
  ])("refuses %s as no e-mail", (_label, claims) => {
    expect(ssoIdentity(claims)).toEqual({ ok: false, error: SSO_ERRORS.noEmail });
  });
  it("ignores role and group claims (they are not part of the identity)", () => {
    const r = ssoIdentity({
      sub: "s1",
      iss: "https://idp",
      email: "k@x.com",
      email_verified: true,
      roles: ["admin"],
      groups: ["treasury-admins"],
    });
    expect(r).toEqual({ ok: true, value: { issuer: "https://idp", subject: "s1", email: "k@x.com" } });
  });
});

describe("admitSsoUser", () => {
  it("admits an enabled user with a role, roles and companies as stored", () => {
    const limited = { ...USER, roles: ["viewer" as const], companyIds: ["0b0c1d2e-3f40-4152-8637-48596a7b8c9d"] };
    expect(admitSsoUser(limited)).toEqual({ ok: true, value: limited });
  });
  it("refuses an unknown, a disabled and a role-less user, each with its own reason", () => {
    expect(admitSsoUser(null)).toEqual({ ok: false, error: SSO_ERRORS.unknownUser });
    expect(admitSsoUser({ ...USER, disabled: true })).toEqual({ ok: false, error: SSO_ERRORS.disabled });
    expect(admitSsoUser({ ...USER, roles: [] })).toEqual({ ok: false, error: SSO_ERRORS.noRole });
  });
});

describe("checkSsoTie (one dashboard user per IdP account)", () => {
  const ID: SsoIdentity = {
    issuer: "https://idp.example.com",
    subject: "a1b2c3d4-248289761001",
    email: "kari@example.com",
  };
  const OTHER_USER = "9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e";

  it("ties a user who has no tie yet, at the first single sign-on", () => {
    expect(checkSsoTie(USER, ID, null, null)).toEqual({ ok: true, value: { link: true } });
  });
  it("admits the tied account again without tying anew", () => {
    expect(checkSsoTie(USER, ID, { issuer: ID.issuer, subject: ID.subject }, USER.id)).toEqual({
      ok: true,
      value: { link: false },
    });
  });
  it.each([
    [
      "a new subject (account re-created, or the address handed to someone else)",
      { issuer: ID.issuer, subject: "999" },
    ],
    ["another issuer with the same subject", { issuer: "https://other-idp.example.com", subject: ID.subject }],
    [
      "a subject differing only in case (sub is case-sensitive)",
      { issuer: ID.issuer, subject: "A1B2C3D4-248289761001" },
    ],
    ["an issuer differing by a trailing slash (compared exactly)", { issuer: `${ID.issuer}/`, subject: ID.subject }],
  ])("refuses a user tied to another account: %s", (_label, tiedTo) => {
    expect(checkSsoTie(USER, ID, tiedTo, null)).toEqual({ ok: false, error: SSO_ERRORS.accountMismatch });
  });
  it("refuses an IdP account already tied to another dashboard user (the IdP changed its e-mail)", () => {
    expect(checkSsoTie(USER, ID, null, OTHER_USER)).toEqual({ ok: false, error: SSO_ERRORS.accountInUse });
  });
  it("names the mismatch first when both hold (the e-mail's user is tied elsewhere)", () => {
    expect(checkSsoTie(USER, ID, { issuer: ID.issuer, subject: "999" }, OTHER_USER)).toEqual({
      ok: false,
      error: SSO_ERRORS.accountMismatch,
    });
  });
  it("compares accounts by issuer and subject exactly", () => {
    expect(sameSsoAccount({ issuer: "https://a", subject: "x" }, { issuer: "https://a", subject: "x" })).toBe(true);
    expect(sameSsoAccount({ issuer: "https://a", subject: "x" }, { issuer: "https://a", subject: "X" })).toBe(false);
    expect(sameSsoAccount({ issuer: "https://a", subject: "x" }, { issuer: "https://b", subject: "x" })).toBe(false);
  });
});

describe("signInErrorMessage", () => {
  it("has a sentence for every single sign-on refusal, none of them the generic one", () => {
    const generic = signInErrorMessage("no-such-code");
    const messages = Object.values(SSO_ERRORS).map(signInErrorMessage);
    for (const m of messages) expect(m).not.toBe(generic);
    expect(new Set(messages).size).toBe(messages.length);
    expect(signInErrorMessage(SSO_ERRORS.unknownUser)).toMatch(/not set up for this dashboard/);
    expect(signInErrorMessage(SSO_ERRORS.accountMismatch)).toMatch(
      /tied to a different single sign-on account.*unlink the old one/,
    );
    expect(signInErrorMessage(SSO_ERRORS.accountInUse)).toMatch(/already tied to another dashboard account/);
  });
  it("explains a failed round trip to the identity provider", () => {
    expect(signInErrorMessage("OAuthCallback")).toMatch(/Single sign-on did not complete/);
  });
  it("states the wait when throttled, in seconds or whole minutes", () => {
    expect(signInErrorMessage("throttled:30")).toBe(
      "Too many failed attempts for this account. Try again in 30 seconds.",
    );
    expect(signInErrorMessage("throttled:60")).toBe(
      "Too many failed attempts for this account. Try again in 1 minute.",
    );
    expect(signInErrorMessage("throttled:61")).toBe(
      "Too many failed attempts for this account. Try again in 2 minutes.",
    );
  });
  it("never echoes an unknown code, nor finds Object.prototype members", () => {
    expect(signInErrorMessage("<script>")).toBe("Sign-in failed. Try again.");
    expect(signInErrorMessage("toString")).toBe("Sign-in failed. Try again.");
    expect(signInErrorMessage("throttled:abc")).toBe("Sign-in failed. Try again.");
  });
});
