import { z } from "zod";
import { Uuid } from "@treasury/contract";
import { SETTINGS_MAX_BODY_BYTES, withUser } from "@/lib/bff/route";
import { markRead } from "@/lib/notify/store";
import { dashboardDb } from "@/lib/server/db";

const Body = z.object({ ids: z.union([z.literal("all"), z.array(Uuid).max(100)]) });

/**
 * POST /api/notifications/read — marks the signed-in user's notifications read: `{ ids: [...] | "all" }` (only their
 * own; others' ids change nothing); `{ marked }` (docs/users-and-notifications.md#notifications).
 */
export const POST = withUser(
  { permission: "profile.self", company: "none", body: Body, maxBody: SETTINGS_MAX_BODY_BYTES },
  async (ctx) => ({ marked: await markRead(await dashboardDb(), ctx.user.id, ctx.body.ids) }),
);
