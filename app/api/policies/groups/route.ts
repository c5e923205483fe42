import { policiesRoutes } from "@/lib/bff/areas/policies/routes";

export const POST = policiesRoutes.addGroup;
