/**
 * The idle timeout's activity record: the session JWT carries `lastActive` (epoch seconds); the proxy moves it
 * forward on a request at most once a minute (./session-rules.ts `refreshedActivity`) by re-issuing the session
 * cookie, and `currentUser` ends a session whose `lastActive` is older than `DASHBOARD_IDLE_MINUTES`.
 *
 * Runs in the proxy, so it reads the environment directly (`NEXTAUTH_SECRET`, `NEXTAUTH_URL`,
 * `DASHBOARD_IDLE_MINUTES`, `DASHBOARD_SESSION_HOURS`) and never throws: a missing or unreadable cookie is left
 * as it is (the route then finds no session).
 */
import { encode, getToken } from "next-auth/jwt";
import type { NextRequest, NextResponse } from "next/server";
import { refreshedActivity } from "./session-rules";

const intEnv = (value: string | undefined, def: number) => {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : def;
};

/** Re-issues the session cookie with a new `lastActive` on `res` when due. Sign-in / sign-out routes are skipped. */
export async function refreshActivityCookie(req: NextRequest, res: NextResponse, nowMs = Date.now()): Promise<void> {
  const secret = process.env.NEXTAUTH_SECRET;
  if (!secret || req.nextUrl.pathname.startsWith("/api/auth/")) return;
  const secure = (process.env.NEXTAUTH_URL ?? "").startsWith("https://");
  const cookieName = `${secure ? "__Secure-" : ""}next-auth.session-token`;
  if (!req.cookies.has(cookieName)) return;
  try {
    const token = await getToken({ req, secret, secureCookie: secure });
    if (!token || typeof token.authAt !== "number") return;
    const idle = intEnv(process.env.DASHBOARD_IDLE_MINUTES, 30);
    const next = refreshedActivity(
      { authAt: token.authAt, ...(typeof token.lastActive === "number" ? { lastActive: token.lastActive } : {}) },
      nowMs,
      idle,
    );
    if (next === null) return;
    const maxAge = intEnv(process.env.DASHBOARD_SESSION_HOURS, 12) * 3600;
    const value = await encode({ token: { ...token, lastActive: next }, secret, maxAge });
    res.cookies.set(cookieName, value, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure,
      expires: new Date(nowMs + maxAge * 1000),
    });
  } catch {
    // An undecodable cookie is not this function's business: the session check refuses it.
  }
}
