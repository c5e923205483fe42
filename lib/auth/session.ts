/**
 * The signed-in user of the current request (server components and route
 * handlers alike). Roles and companies are read from the dashboard database,
 * at most 5 s old (./session-cache.ts), so disabling a user or changing roles
 * applies within seconds — at once on this instance.
 */
import "server-only";
import { getServerSession } from "next-auth";
import { cookies } from "next/headers";
import { findUserById, type DashboardUser } from "../db/users";
import { dashboardDb } from "../server/db";
import { getConfig } from "../server/config";
import { getAuthOptions } from "./options";
import { sessionCache, sessionKey, type LoadedSession } from "./session-cache";

/** Decodes the session JWT and reads its user: the uncached path. */
async function loadSession(): Promise<LoadedSession | null> {
  const session = await getServerSession(getAuthOptions());
  const id = session?.user?.id;
  if (!session || !id) return null;
  const user = await findUserById(await dashboardDb(), id);
  return user ? { session, user } : null;
}

/**
 * The enabled user of this request's session, or null: also null when the session has ended (signed in under an
 * older session version: sign-out, disabling, a change of roles, companies or password) or is older than the
 * absolute lifetime (`DASHBOARD_SESSION_HOURS`) or was not used for `DASHBOARD_IDLE_MINUTES`, though its JWT is still
 * valid (the proxy records activity in the token, ./activity-cookie.ts).
 */
export async function currentUser(): Promise<DashboardUser | null> {
  const key = sessionKey((await cookies()).getAll());
  if (!key) return null;
  const config = getConfig();
  return sessionCache().user(key, loadSession, config.DASHBOARD_SESSION_HOURS, config.DASHBOARD_IDLE_MINUTES);
}
