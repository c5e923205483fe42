import { sessionRoutes } from "@/lib/bff/areas/session/routes";

export const POST = sessionRoutes.stepUpVerify;
