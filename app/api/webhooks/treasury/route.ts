import { webhooksRoutes } from "@/lib/bff/areas/webhooks/routes";

export const POST = webhooksRoutes.receive;
