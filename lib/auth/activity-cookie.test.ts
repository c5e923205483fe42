import { decode, encode } from "next-auth/jwt";
import { NextRequest, NextResponse } from "next/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refreshActivityCookie } from "./activity-cookie";

const SECRET = "test-secret-of-at-least-thirty-two-characters";
const T0 = Date.parse("2026-11-23T06:00:00Z");
const COOKIE = "next-auth.session-token";

async function request(lastActive: number, path = "/payments") {
  const jwt = await encode({ token: { sub: "u1", sv: 0, authAt: T0 / 1000, lastActive }, secret: SECRET });
  return new NextRequest(`http://localhost:3000${path}`, { headers: { cookie: `${COOKIE}=${jwt}` } });
}

async function refreshed(req: NextRequest, nowMs: number) {
  const res = NextResponse.next();
  await refreshActivityCookie(req, res, nowMs);
  const value = res.cookies.get(COOKIE)?.value;
  return value ? await decode({ token: value, secret: SECRET }) : null;
}

describe("refreshActivityCookie", () => {
  beforeEach(() => {
    process.env.NEXTAUTH_SECRET = SECRET;
    process.env.NEXTAUTH_URL = "http://localhost:3000";
    process.env.DASHBOARD_IDLE_MINUTES = "30";
  });
  afterEach(() => {
    delete process.env.DASHBOARD_IDLE_MINUTES;
  });

  it("re-issues the cookie with the new activity time once a minute has passed, keeping the rest", async () => {
    const token = await refreshed(await request(T0 / 1000), T0 + 90_000);
    expect(token).toMatchObject({ sub: "u1", sv: 0, authAt: T0 / 1000, lastActive: T0 / 1000 + 90 });
  });

  it("writes nothing within the minute, after the idle timeout, or on next-auth's own routes", async () => {
    expect(await refreshed(await request(T0 / 1000), T0 + 59_000)).toBeNull();
    expect(await refreshed(await request(T0 / 1000), T0 + 30 * 60_000)).toBeNull();
    expect(await refreshed(await request(T0 / 1000, "/api/auth/session"), T0 + 90_000)).toBeNull();
  });

  it("honours DASHBOARD_IDLE_MINUTES", async () => {
    process.env.DASHBOARD_IDLE_MINUTES = "5";
    expect(await refreshed(await request(T0 / 1000), T0 + 5 * 60_000)).toBeNull();
    expect(await refreshed(await request(T0 / 1000), T0 + 4 * 60_000)).toMatchObject({ lastActive: T0 / 1000 + 240 });
  });
});
