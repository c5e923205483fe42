import { notificationsRoutes } from "@/lib/bff/areas/notifications/routes";

export const GET = notificationsRoutes.settings;
export const PUT = notificationsRoutes.setSetting;
