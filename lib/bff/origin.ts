/** The Origin check of BFF writes (cross-site request forgery defence); pure, so it is unit-tested alone. */

/**
 * Whether a write's `Origin` is the dashboard's own: the origin of `NEXTAUTH_URL` (its public URL) or one listed in
 * `DASHBOARD_ALLOWED_ORIGINS`, compared exactly (scheme, host and port; `localhost` and `127.0.0.1` differ). Never
 * derived from the request's `Host` / `X-Forwarded-*` headers, which a client or a misconfigured proxy controls.
 * No Origin, or no configured origin at all, refuses.
 */
export function originAllowed(
  origin: string | null,
  publicUrl: string | undefined,
  extra: readonly string[] = [],
): boolean {
  if (!origin) return false;
  const allowed = new Set(extra);
  if (publicUrl) allowed.add(new URL(publicUrl).origin);
  return allowed.has(origin);
}
