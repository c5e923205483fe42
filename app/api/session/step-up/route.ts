import { sessionRoutes } from "@/lib/bff/areas/session/routes";

export const GET = sessionRoutes.stepUp;
