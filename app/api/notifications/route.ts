import { z } from "zod";
import { withUser } from "@/lib/bff/route";
import { listNotifications, unreadCount } from "@/lib/notify/store";
import { dashboardDb } from "@/lib/server/db";

const Query = z.object({
  cursor: z
    .string()
    .max(200)
    .regex(/^[^|]+\|[0-9a-f-]{36}$/, { message: "is not a cursor of this list" })
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

/**
 * GET /api/notifications — the signed-in user's notifications, newest first, paged
 * (docs/users-and-notifications.md#notifications): `{ items: [{ id, kind, title, body, link, created_at, read }],
 * next_cursor, unread }`; `cursor` from the previous page, `limit` 1..100 (default 20); 400 naming a bad one.
 */
export const GET = withUser({ permission: "profile.self", company: "none", query: Query }, async (ctx) => {
  const db = await dashboardDb();
  const [page, unread] = await Promise.all([
    listNotifications(db, ctx.user.id, { cursor: ctx.query.cursor, limit: ctx.query.limit }),
    unreadCount(db, ctx.user.id),
  ]);
  return { ...page, unread };
});
