/**
 * The notifications area's BFF endpoints (docs/users-and-notifications.md#notifications): the signed-in user's
 * notifications, marking them read, and the e-mail settings. Isomorphic: the browser derives its URLs and query keys
 * from these.
 */
import type { NotificationKind } from "@/lib/notify/kinds";
import type { NotificationView } from "@/lib/notify/store";
import { endpoint } from "../../endpoint";

/** One notification as GET /api/notifications lists it (the store's own view, lib/notify/store.ts). */
export type NotificationItem = NotificationView;

/** One page of GET /api/notifications (20 a page); `unread` counts every unread one of the user. */
export interface NotificationPage {
  items: NotificationItem[];
  next_cursor: string | null;
  unread: number;
}

/** The user's e-mail switch per kind, and whether e-mail is on at all (`smtp`). */
export interface NotificationSettings {
  smtp: boolean;
  email: Record<NotificationKind, boolean>;
}

export const notificationsEndpoints = {
  list: endpoint("GET", "/api/notifications").returns<NotificationPage>(),
  markRead: endpoint("POST", "/api/notifications/read").returns<{ marked: number }>(),
  settings: endpoint("GET", "/api/notifications/settings").returns<NotificationSettings>(),
  setSetting: endpoint("PUT", "/api/notifications/settings").returns<NotificationSettings>(),
};
