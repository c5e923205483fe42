/**
 * The notifications area's BFF routes (docs/users-and-notifications.md#notifications), declared against
 * ./endpoints.ts: the signed-in user's own notifications and e-mail settings.
 */
import "server-only";
import { z } from "zod";
import { Uuid } from "@treasury/contract";
import { declareRoute, defineRoutes, SETTINGS_MAX_BODY_BYTES } from "@/lib/bff/route";
import { NOTIFICATION_KIND_LIST, type NotificationKind } from "@/lib/notify/kinds";
import { emailEnabled } from "@/lib/notify/runtime";
import { emailSettings, listNotifications, markRead, setEmailSetting, unreadCount } from "@/lib/notify/store";
import { dashboardDb } from "@/lib/server/db";
import { notificationsEndpoints } from "./endpoints";

const ListQuery = z.object({
  cursor: z
    .string()
    .max(200)
    .regex(/^[^|]+\|[0-9a-f-]{36}$/, { message: "is not a cursor of this list" })
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

const ReadBody = z.object({ ids: z.union([z.literal("all"), z.array(Uuid).max(100)]) });

const SettingBody = z.object({
  kind: z.enum(NOTIFICATION_KIND_LIST as [NotificationKind, ...NotificationKind[]]),
  email: z.boolean(),
});

export const notificationsRoutes = defineRoutes(notificationsEndpoints, {
  /**
   * GET /api/notifications — the signed-in user's notifications, newest first, paged
   * (docs/users-and-notifications.md#notifications): `{ items: [{ id, kind, title, body, link, created_at, read }],
   * next_cursor, unread }`; `cursor` from the previous page, `limit` 1..100 (default 20); 400 naming a bad one.
   */
  list: declareRoute(
    notificationsEndpoints.list,
    { permission: "profile.self", company: "none", query: ListQuery },
    async (ctx) => {
      const db = await dashboardDb();
      const [page, unread] = await Promise.all([
        listNotifications(db, ctx.user.id, { cursor: ctx.query.cursor, limit: ctx.query.limit }),
        unreadCount(db, ctx.user.id),
      ]);
      return { ...page, unread };
    },
  ),

  /**
   * POST /api/notifications/read — marks the signed-in user's notifications read: `{ ids: [...] | "all" }` (only their
   * own; others' ids change nothing); `{ marked }` (docs/users-and-notifications.md#notifications).
   */
  markRead: declareRoute(
    notificationsEndpoints.markRead,
    { permission: "profile.self", company: "none", body: ReadBody, maxBody: SETTINGS_MAX_BODY_BYTES },
    async (ctx) => ({ marked: await markRead(await dashboardDb(), ctx.user.id, ctx.body.ids) }),
  ),

  /**
   * GET /api/notifications/settings — the signed-in user's e-mail switch per kind and whether e-mail is on at all:
   * `{ smtp: boolean, email: { <kind>: boolean } }` (docs/users-and-notifications.md#e-mail).
   */
  settings: declareRoute(
    notificationsEndpoints.settings,
    { permission: "profile.self", company: "none" },
    async (ctx) => ({
      smtp: emailEnabled(),
      email: await emailSettings(await dashboardDb(), ctx.user.id),
    }),
  ),

  /** PUT /api/notifications/settings — `{ kind, email }` switches e-mail of one kind on or off; the settings back. */
  setSetting: declareRoute(
    notificationsEndpoints.setSetting,
    { permission: "profile.self", company: "none", body: SettingBody, maxBody: SETTINGS_MAX_BODY_BYTES },
    async (ctx) => {
      const db = await dashboardDb();
      await setEmailSetting(db, ctx.user.id, ctx.body.kind, ctx.body.email);
      return { smtp: emailEnabled(), email: await emailSettings(db, ctx.user.id) };
    },
  ),
});
