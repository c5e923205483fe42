import { z } from "zod";
import { SETTINGS_MAX_BODY_BYTES, withUser } from "@/lib/bff/route";
import { NOTIFICATION_KIND_LIST, type NotificationKind } from "@/lib/notify/kinds";
import { emailEnabled } from "@/lib/notify/runtime";
import { emailSettings, setEmailSetting } from "@/lib/notify/store";
import { dashboardDb } from "@/lib/server/db";

const Body = z.object({
  kind: z.enum(NOTIFICATION_KIND_LIST as [NotificationKind, ...NotificationKind[]]),
  email: z.boolean(),
});

/**
 * GET /api/notifications/settings — the signed-in user's e-mail switch per kind and whether e-mail is on at all:
 * `{ smtp: boolean, email: { <kind>: boolean } }` (docs/users-and-notifications.md#e-mail).
 */
export const GET = withUser({ permission: "profile.self", company: "none" }, async (ctx) => ({
  smtp: emailEnabled(),
  email: await emailSettings(await dashboardDb(), ctx.user.id),
}));

/** PUT /api/notifications/settings — `{ kind, email }` switches e-mail of one kind on or off; the settings back. */
export const PUT = withUser(
  { permission: "profile.self", company: "none", body: Body, maxBody: SETTINGS_MAX_BODY_BYTES },
  async (ctx) => {
    const db = await dashboardDb();
    await setEmailSetting(db, ctx.user.id, ctx.body.kind, ctx.body.email);
    return { smtp: emailEnabled(), email: await emailSettings(db, ctx.user.id) };
  },
);
