import { webhooksRoutes } from "@/lib/bff/areas/webhooks/routes";

export const GET = webhooksRoutes.get;
export const PATCH = webhooksRoutes.change;
export const DELETE = webhooksRoutes.remove;
