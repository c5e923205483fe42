/**
 * Sign-out through next-auth's REST API — the two requests `signOut()` of
 * next-auth/react makes: `GET /api/auth/csrf` for the CSRF token, then
 * `POST /api/auth/signout` (form-encoded `csrfToken`, `callbackUrl`,
 * `json=true`), which clears the session cookie and answers `{ url }`.
 * Written out here so that the shell does not ship next-auth's browser
 * client (and its Babel runtime, ≈ 10 KB gz) on every page for one button.
 * The dashboard has no `SessionProvider`, so next-auth's cross-tab
 * broadcast has no listener and is not needed.
 *
 * @param callbackUrl where to go once signed out (same-origin path, e.g. "/login")
 * @throws Error when either request fails; the session is then unchanged
 */
export async function signOutTo(callbackUrl: string): Promise<void> {
  const csrf = await fetch("/api/auth/csrf", { credentials: "same-origin", cache: "no-store" });
  if (!csrf.ok) throw new Error(`Sign-out failed (${csrf.status}).`);
  const { csrfToken } = (await csrf.json()) as { csrfToken?: unknown };
  if (typeof csrfToken !== "string") throw new Error("Sign-out failed (no CSRF token).");
  const res = await fetch("/api/auth/signout", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl, json: "true" }),
  });
  if (!res.ok) throw new Error(`Sign-out failed (${res.status}).`);
  const { url } = (await res.json()) as { url?: unknown };
  window.location.href = typeof url === "string" ? url : callbackUrl;
}
