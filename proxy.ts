/**
 * Next 16 proxy (formerly middleware): a Content-Security-Policy with a
 * fresh nonce per request (Next applies the nonce to its own scripts), and a
 * request id that follows the request into the BFF and the Treasury API; and the session's last-activity time,
 * moved forward at most once a minute for the idle timeout (lib/auth/activity-cookie.ts).
 */
import { NextResponse, type NextRequest } from "next/server";
import { refreshActivityCookie } from "./lib/auth/activity-cookie";

/** The CSP for one response. `dev` allows what Next's dev server needs (eval for fast refresh, websockets). */
export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // Inline style attributes (Radix positioning, charts) cannot carry a nonce.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export async function proxy(req: NextRequest): Promise<NextResponse> {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = contentSecurityPolicy(nonce, process.env.NODE_ENV !== "production");
  const headers = new Headers(req.headers);
  headers.set("x-nonce", nonce);
  headers.set("Content-Security-Policy", csp);
  const given = req.headers.get("x-request-id");
  const requestId = given && /^[A-Za-z0-9._-]{1,100}$/.test(given) ? given : crypto.randomUUID();
  headers.set("x-request-id", requestId);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("Content-Security-Policy", csp);
  res.headers.set("X-Request-ID", requestId);
  await refreshActivityCookie(req, res);
  return res;
}

export const config = {
  matcher: [{ source: "/((?!_next/static|_next/image|favicon.ico|.*\\.png$|.*\\.svg$).*)" }],
};
