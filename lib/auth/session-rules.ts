/**
 * Whether a signed-in session still stands: it was signed in under the user's current session version (raised by
 * sign-out, disabling, and a change of roles, companies or password) and is younger than the absolute lifetime.
 * Pure; `currentUser` applies it on every request, after reading the user from the dashboard DB.
 *
 * @param session `sv` the version at sign-in, `authAt` sign-in time in epoch seconds
 * @param user the user's current `sessionVersion`
 * @param nowMs the current time in epoch milliseconds
 * @param lifetimeHours absolute lifetime in hours
 */
export function sessionCurrent(
  session: { sv: number; authAt: number },
  user: { sessionVersion: number },
  nowMs: number,
  lifetimeHours: number,
): boolean {
  if (session.sv !== user.sessionVersion) return false;
  return nowMs - session.authAt * 1000 < lifetimeHours * 3_600_000;
}
