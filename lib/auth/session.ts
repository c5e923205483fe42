/**
 * The signed-in user of the current request (server components and route
 * handlers alike). Roles and companies are read from the dashboard database
 * on every request, so disabling a user or changing roles applies at once.
 */
import "server-only";
import { getServerSession } from "next-auth";
import { findUserById, type DashboardUser } from "../db/users";
import { dashboardDb } from "../server/db";
import { getAuthOptions } from "./options";

/** The enabled user of this request's session, or null. */
export async function currentUser(): Promise<DashboardUser | null> {
  const session = await getServerSession(getAuthOptions());
  const id = session?.user?.id;
  if (!id) return null;
  const user = await findUserById(await dashboardDb(), id);
  return user && !user.disabled ? user : null;
}
