import { policiesRoutes } from "@/lib/bff/areas/policies/routes";

export const PUT = policiesRoutes.changeGroup;
export const DELETE = policiesRoutes.removeGroup;
