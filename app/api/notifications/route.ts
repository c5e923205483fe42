import { notificationsRoutes } from "@/lib/bff/areas/notifications/routes";

export const GET = notificationsRoutes.list;
