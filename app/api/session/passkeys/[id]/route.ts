import { sessionRoutes } from "@/lib/bff/areas/session/routes";

export const PATCH = sessionRoutes.renamePasskey;
export const DELETE = sessionRoutes.removePasskey;
