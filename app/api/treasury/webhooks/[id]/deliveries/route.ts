import { webhooksRoutes } from "@/lib/bff/areas/webhooks/routes";

export const GET = webhooksRoutes.deliveries;
