/**
 * Users managed in the browser, through the BFF's real route handlers (docs/users-and-notifications.md), against
 * the real local treasury-api and the dashboard's in-memory database:
 *
 * - an admin adds a user: 201 with a link; the link sets the password once, only for its e-mail, within 72 h, and
 *   dies when the user is disabled or a newer link is issued; the new user signs in with the roles given;
 * - role / company changes, disable / enable and password reset are audited with before and after;
 * - an admin cannot take away their own admin role, nor disable the last enabled admin;
 * - bad and hostile input (CR / LF in a name, a malformed e-mail, a duplicate) is 400 / 409 and changes nothing;
 * - a non-admin is refused; with step-up on, an admin with a passkey is refused without a confirmation (audited).
 */
import { beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../auth/session", async () => (await import("./testing/local-api")).sessionModule);
vi.mock("next/headers", async () => (await import("./testing/local-api")).headersModule);

import { NextRequest } from "next/server";
import { listAudit } from "../db/audit";
import { addPasskey } from "../db/passkeys";
import { acceptInvitation, INVITATION_TTL_MS } from "../db/user-admin";
import { findUserByEmail, upsertUser, verifyCredentials, type DashboardUser } from "../db/users";
import { dashboardDb } from "../server/db";
import { bffSuite, errorFields, testUser } from "./testing/local-api";
import * as usersRoute from "../../app/api/admin/users/route";
import * as userRoute from "../../app/api/admin/users/[id]/route";
import * as resetRoute from "../../app/api/admin/users/[id]/password-reset/route";
import * as passkeysRoute from "../../app/api/admin/users/[id]/passkeys/route";
import * as acceptRoute from "../../app/api/invitations/accept/route";

const ORIGIN = "http://127.0.0.1:3997";
const bff = bffSuite({ origin: ORIGIN, env: { DASHBOARD_BCRYPT_COST: "4" }, startTimeoutMs: 240_000 });
let admin: DashboardUser;
const outsider = testUser("vera-viewer", ["viewer"]);

type Body = Record<string, unknown>;

function call(
  handler: unknown,
  who: DashboardUser,
  method: string,
  path: string,
  opts: { params?: Record<string, string>; json?: unknown } = {},
) {
  return bff.call<Body>(handler, who, method, path, opts);
}

/** POST /api/invitations/accept without a session. */
async function accept(json: unknown, origin = ORIGIN): Promise<{ status: number; body: Body }> {
  const req = new NextRequest(`${ORIGIN}/api/invitations/accept`, {
    method: "POST",
    headers: { origin, "content-type": "application/json" },
    body: JSON.stringify(json),
  });
  const res = await acceptRoute.POST(req);
  return { status: res.status, body: (await res.json()) as Body };
}

/** Runs `fn` with the dashboard's passkey step-up set to `mode` (its config re-read), then back to "off". */
async function withStepUp(mode: "required" | "optional", fn: () => Promise<void>): Promise<void> {
  const reset = (to: string) => {
    process.env.DASHBOARD_STEP_UP = to;
    (globalThis as { __dashboardConfig?: unknown }).__dashboardConfig = undefined;
  };
  reset(mode);
  try {
    await fn();
  } finally {
    reset("off");
  }
}

function tokenOf(url: unknown): string {
  const m = /\/invite#([A-Za-z0-9_-]+)$/.exec(String(url));
  if (!m?.[1]) throw new Error(`no token in ${String(url)}`);
  return m[1];
}

async function invite(email: string, roles: string[] = ["treasurer"], companyIds: string[] | null = null) {
  const r = await call(usersRoute.POST, admin, "POST", "/api/admin/users", {
    json: { name: "Kari Nordmann", email, roles, company_ids: companyIds },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { id: String((r.body.user as Body).id), token: tokenOf(r.body.invitation_url) };
}

beforeAll(async () => {
  const db = await dashboardDb();
  const a = await upsertUser(db, {
    email: "ada-admin@test.local",
    name: "Ada",
    roles: ["admin"],
    password: "ada-password-123",
  });
  admin = a;
}, 240_000);

describe("adding a user and the invitation link", () => {
  it("adds a user whose link sets the password once, for its e-mail only; they sign in with the roles given", async () => {
    const company = bff.local.company().id;
    const { id, token } = await invite("kari@example.com", ["treasurer", "approver"], [company]);
    const db = await dashboardDb();
    const [entry] = await listAudit(db, { companyIds: null, action: "user.invite", objectIds: [id] });
    expect(entry?.details).toMatchObject({
      before: null,
      after: { email: "kari@example.com", roles: ["treasurer", "approver"] },
    });

    // No password yet: nothing signs in.
    expect((await verifyCredentials(db, "kari@example.com", "kari-password-1")).ok).toBe(false);
    // Another address: refused, naming email; the link still works afterwards.
    const wrong = await accept({ token, email: "mallory@example.com", password: "kari-password-1" });
    expect(wrong.status).toBe(400);
    expect(errorFields(wrong.body)).toEqual(["email"]);
    const short = await accept({ token, email: "kari@example.com", password: "short" });
    expect(errorFields(short.body)).toEqual(["password"]);
    const foreign = await accept(
      { token, email: "kari@example.com", password: "kari-password-1" },
      "https://evil.example",
    );
    expect(foreign.status).toBe(403);

    const ok = await accept({ token, email: "KARI@example.com", password: "kari-password-1" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const signedIn = await verifyCredentials(db, "kari@example.com", "kari-password-1");
    expect(signedIn.ok && signedIn.user).toMatchObject({ roles: ["treasurer", "approver"], companyIds: [company] });

    const again = await accept({ token, email: "kari@example.com", password: "another-password-2" });
    expect(again.status).toBe(400);
    expect(errorFields(again.body)).toEqual(["token"]);
    expect((await verifyCredentials(db, "kari@example.com", "another-password-2")).ok).toBe(false);
  });

  it("a link expires after 72 hours and an unknown token is refused", async () => {
    const { token } = await invite("late@example.com");
    const db = await dashboardDb();
    await expect(
      acceptInvitation(
        db,
        { token, email: "late@example.com", password: "late-password-1" },
        Date.now() + INVITATION_TTL_MS + 1000,
      ),
    ).rejects.toThrow(/expired/);
    const junk = await accept({ token: "x".repeat(43), email: "late@example.com", password: "late-password-1" });
    expect(junk.status).toBe(400);
    expect(errorFields(junk.body)).toEqual(["token"]);
  });

  it("a disabled user's invitation dies, and enabling does not revive it", async () => {
    const { id, token } = await invite("gone@example.com");
    const off = await call(userRoute.PATCH, admin, "PATCH", `/api/admin/users/${id}`, {
      params: { id },
      json: { disabled: true },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const r = await accept({ token, email: "gone@example.com", password: "gone-password-1" });
    expect(r.status).toBe(400);
    const on = await call(userRoute.PATCH, admin, "PATCH", `/api/admin/users/${id}`, {
      params: { id },
      json: { disabled: false },
    });
    expect(on.status).toBe(200);
    expect((await accept({ token, email: "gone@example.com", password: "gone-password-1" })).status).toBe(400);
    const db = await dashboardDb();
    const actions = (await listAudit(db, { companyIds: null, objectIds: [id] })).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["user.disable", "user.enable", "user.invite"]));
  });

  it("refuses CR / LF in a name, a malformed e-mail, a duplicate and a non-admin, changing nothing", async () => {
    const post = (json: unknown, who = admin) => call(usersRoute.POST, who, "POST", "/api/admin/users", { json });
    const crlf = await post({ name: "Eve\r\nBcc: all@example.com", email: "eve@example.com", roles: ["viewer"] });
    expect(crlf.status).toBe(400);
    expect(errorFields(crlf.body)).toEqual(["name"]);
    for (const email of ["not-an-email", "eve@example.com\r\nBcc: x@example.com", "a@b", ""]) {
      const bad = await post({ name: "Eve", email, roles: ["viewer"] });
      expect(bad.status, email).toBe(400);
      expect(errorFields(bad.body)).toEqual(["email"]);
    }
    const noRole = await post({ name: "Eve", email: "eve@example.com", roles: [] });
    expect(errorFields(noRole.body)).toEqual(["roles"]);
    const badRole = await post({ name: "Eve", email: "eve@example.com", roles: ["root"] });
    expect(errorFields(badRole.body)).toEqual(["roles[0]"]);
    expect(await findUserByEmail(await dashboardDb(), "eve@example.com")).toBeNull();

    await invite("twice@example.com");
    const dup = await post({ name: "Twice", email: "TWICE@example.com", roles: ["viewer"] });
    expect(dup.status).toBe(409);

    const forbidden = await post({ name: "Eve", email: "eve@example.com", roles: ["admin"] }, outsider);
    expect(forbidden.status).toBe(403);
    const list = await call(usersRoute.GET, outsider, "GET", "/api/admin/users");
    expect(list.status).toBe(403);
  });
});

describe("changing users", () => {
  it("audits a change of roles and companies with before and after, and lists the user", async () => {
    const { id } = await invite("role@example.com", ["viewer"]);
    const company = bff.local.company().id;
    const r = await call(userRoute.PATCH, admin, "PATCH", `/api/admin/users/${id}`, {
      params: { id },
      json: { roles: ["approver"], company_ids: [company] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [entry] = await listAudit(await dashboardDb(), { companyIds: null, action: "user.update", objectIds: [id] });
    expect(entry?.details).toMatchObject({
      before: { roles: ["viewer"], company_ids: null },
      after: { roles: ["approver"], company_ids: [company] },
    });
    const list = await call(usersRoute.GET, admin, "GET", "/api/admin/users");
    const row = (list.body.items as Body[]).find((u) => u.id === id);
    expect(row).toMatchObject({ roles: ["approver"], invitation_open: true, has_password: false });

    const bad = await call(userRoute.PATCH, admin, "PATCH", `/api/admin/users/${id}`, { params: { id }, json: {} });
    expect(bad.status).toBe(400);
    const badName = await call(userRoute.PATCH, admin, "PATCH", `/api/admin/users/${id}`, {
      params: { id },
      json: { name: "X\nY" },
    });
    expect(errorFields(badName.body)).toEqual(["name"]);
  });

  it("refuses removing one's own admin role, disabling oneself and leaving no enabled admin", async () => {
    const own = await call(userRoute.PATCH, admin, "PATCH", `/api/admin/users/${admin.id}`, {
      params: { id: admin.id },
      json: { roles: ["viewer"] },
    });
    expect(own.status).toBe(400);
    expect(errorFields(own.body)).toEqual(["roles"]);
    const self = await call(userRoute.PATCH, admin, "PATCH", `/api/admin/users/${admin.id}`, {
      params: { id: admin.id },
      json: { disabled: true },
    });
    expect(errorFields(self.body)).toEqual(["disabled"]);

    // Another admin (e.g. one signed in through the CLI's account) may not take away the last enabled admin either.
    const other = testUser("otto-admin", ["admin"]);
    const last = await call(userRoute.PATCH, other, "PATCH", `/api/admin/users/${admin.id}`, {
      params: { id: admin.id },
      json: { disabled: true },
    });
    expect(last.status, JSON.stringify(last.body)).toBe(409);
    const db = await dashboardDb();
    expect((await findUserByEmail(db, admin.email))?.disabled).toBe(false);

    // With a second admin, the first may be demoted by the second.
    const second = await invite("second-admin@example.com", ["admin"]);
    const demote = await call(userRoute.PATCH, other, "PATCH", `/api/admin/users/${second.id}`, {
      params: { id: second.id },
      json: { roles: ["viewer"] },
    });
    expect(demote.status).toBe(200);
    const unknown = await call(
      userRoute.PATCH,
      admin,
      "PATCH",
      `/api/admin/users/00000000-0000-4000-8000-000000000000`,
      {
        params: { id: "00000000-0000-4000-8000-000000000000" },
        json: { roles: ["viewer"] },
      },
    );
    expect(unknown.status).toBe(404);
  });

  it("a password reset ends the old password and issues a new single-use link", async () => {
    const { id, token } = await invite("reset@example.com");
    expect((await accept({ token, email: "reset@example.com", password: "first-password-1" })).status).toBe(200);
    const r = await call(resetRoute.POST, admin, "POST", `/api/admin/users/${id}/password-reset`, { params: { id } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const db = await dashboardDb();
    expect((await verifyCredentials(db, "reset@example.com", "first-password-1")).ok).toBe(false);
    const fresh = tokenOf(r.body.invitation_url);
    expect((await accept({ token: fresh, email: "reset@example.com", password: "second-password-2" })).status).toBe(
      200,
    );
    expect((await verifyCredentials(db, "reset@example.com", "second-password-2")).ok).toBe(true);
    const [entry] = await listAudit(db, { companyIds: null, action: "user.password_reset", objectIds: [id] });
    expect(entry?.details).toMatchObject({ before: { has_password: true }, after: { has_password: false } });
  });
});

describe("passkey step-up on user writes", () => {
  it("step-up required: an admin without a passkey removes a locked-out user's passkeys (the recovery path)", async () => {
    const db = await dashboardDb();
    const keyless = await upsertUser(db, { email: "keyless-admin@test.local", name: "Keyless", roles: ["admin"] });
    const locked = await upsertUser(db, { email: "locked-out@test.local", name: "Locked", roles: ["approver"] });
    await addPasskey(db, {
      userId: locked.id,
      credentialId: "test-cred-locked-out",
      publicKey: "pk",
      counter: 0,
      transports: [],
      name: "Lost phone",
    });
    await withStepUp("required", async () => {
      const rm = await call(passkeysRoute.DELETE, keyless, "DELETE", `/api/admin/users/${locked.id}/passkeys`, {
        params: { id: locked.id },
      });
      expect(rm.status, JSON.stringify(rm.body)).toBe(200);
      expect(rm.body).toMatchObject({ id: locked.id, removed: 1 });
      const [entry] = await listAudit(db, { companyIds: null, action: "user.passkeys_remove", objectIds: [locked.id] });
      expect(entry).toMatchObject({ outcome: "success", details: { removed: 1 } });
    });
  });

  it("refuses an admin with a passkey who sent no confirmation, and audits the refusal", async () => {
    const db = await dashboardDb();
    await addPasskey(db, {
      userId: admin.id,
      credentialId: "test-cred-user-admin",
      publicKey: "pk",
      counter: 0,
      transports: [],
      name: "Laptop",
    });
    await withStepUp("optional", async () => {
      const r = await call(usersRoute.POST, admin, "POST", "/api/admin/users", {
        json: { name: "Step", email: "step@example.com", roles: ["viewer"] },
      });
      expect(r.status).toBe(403);
      expect(r.body.error).toBe("step_up_required");
      const rm = await call(passkeysRoute.DELETE, admin, "DELETE", `/api/admin/users/${admin.id}/passkeys`, {
        params: { id: admin.id },
      });
      expect(rm.status).toBe(403);
      expect(await findUserByEmail(db, "step@example.com")).toBeNull();
      const refusals = await listAudit(db, { companyIds: null, action: "user.refused" });
      expect(refusals.length).toBeGreaterThanOrEqual(2);
      expect(refusals[0]).toMatchObject({ outcome: "refused", details: { reason: "step_up_missing" } });
    });
  });
});
