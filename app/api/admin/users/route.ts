import { withUser } from "@/lib/bff/route";
import { passkeyCounts } from "@/lib/db/passkeys";
import { listUsers } from "@/lib/db/users";
import { dashboardDb } from "@/lib/server/db";

/** GET /api/admin/users — every dashboard user with their passkey count (admin): `{ items: [{ id, email, name, roles, disabled, passkeys }] }`. */
export const GET = withUser({ permission: "users.manage", company: "none" }, async () => {
  const db = await dashboardDb();
  const [users, counts] = await Promise.all([listUsers(db), passkeyCounts(db)]);
  return {
    items: users.map((u) => ({
      id: u.id,
      email: u.email,
      name: u.name,
      roles: u.roles,
      disabled: u.disabled,
      passkeys: counts.get(u.id) ?? 0,
    })),
  };
});
