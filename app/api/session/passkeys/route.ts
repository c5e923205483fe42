import { withUser } from "@/lib/bff/route";
import { listPasskeys } from "@/lib/db/passkeys";
import { dashboardDb } from "@/lib/server/db";

/** GET /api/session/passkeys — the signed-in user's passkeys `{ items: [{ id, name, createdAt, lastUsedAt }] }`. */
export const GET = withUser({ permission: "profile.self", company: "none" }, async (ctx) => ({
  items: await listPasskeys(await dashboardDb(), ctx.user.id),
}));
