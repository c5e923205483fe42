/**
 * Whether a signed-in session still stands: it was signed in under the user's current session version (raised by
 * sign-out, disabling, and a change of roles, companies or password), is younger than the absolute lifetime, and
 * was used within the idle timeout. Pure; `currentUser` applies it on every request, after reading the user from
 * the dashboard DB.
 *
 * @param session `sv` the version at sign-in, `authAt` sign-in time and `lastActive` the last recorded activity,
 *   both in epoch seconds (`lastActive` missing: the sign-in time)
 * @param user the user's current `sessionVersion`
 * @param nowMs the current time in epoch milliseconds
 * @param lifetimeHours absolute lifetime in hours
 * @param idleMinutes idle timeout in minutes (omitted: no idle timeout)
 */
export function sessionCurrent(
  session: { sv: number; authAt: number; lastActive?: number },
  user: { sessionVersion: number },
  nowMs: number,
  lifetimeHours: number,
  idleMinutes?: number,
): boolean {
  if (session.sv !== user.sessionVersion) return false;
  if (idleMinutes !== undefined && idleExpired(session, nowMs, idleMinutes)) return false;
  return nowMs - session.authAt * 1000 < lifetimeHours * 3_600_000;
}

/** How often the recorded activity of a session is moved forward, at most (seconds). */
export const ACTIVITY_REFRESH_SECONDS = 60;

/**
 * True when the session has not been used for `idleMinutes` or longer (exactly at the limit: ended).
 * @param session `authAt` and `lastActive` in epoch seconds; `lastActive` missing: the sign-in time
 */
export function idleExpired(session: { authAt: number; lastActive?: number }, nowMs: number, idleMinutes: number) {
  const last = session.lastActive ?? session.authAt;
  return nowMs - last * 1000 >= idleMinutes * 60_000;
}

/**
 * The new last-activity time (epoch seconds) to record for a request at `nowMs`, or null when nothing is to be
 * written: the recorded one is less than `ACTIVITY_REFRESH_SECONDS` old (at most one cookie rewrite a minute), or
 * the session has already ended by idling (an idle session is never revived by a later request).
 */
export function refreshedActivity(
  session: { authAt: number; lastActive?: number },
  nowMs: number,
  idleMinutes: number,
): number | null {
  if (idleExpired(session, nowMs, idleMinutes)) return null;
  const last = session.lastActive ?? session.authAt;
  const now = Math.floor(nowMs / 1000);
  return now - last >= ACTIVITY_REFRESH_SECONDS ? now : null;
}
