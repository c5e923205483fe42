import { policiesRoutes } from "@/lib/bff/areas/policies/routes";

export const PUT = policiesRoutes.change;
export const DELETE = policiesRoutes.remove;
