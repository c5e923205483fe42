import { notificationsRoutes } from "@/lib/bff/areas/notifications/routes";

export const POST = notificationsRoutes.markRead;
