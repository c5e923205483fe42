import { policiesRoutes } from "@/lib/bff/areas/policies/routes";

export const GET = policiesRoutes.view;
export const POST = policiesRoutes.add;
