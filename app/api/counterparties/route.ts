import { counterpartiesRoutes } from "@/lib/bff/areas/counterparties/routes";

export const GET = counterpartiesRoutes.list;
export const POST = counterpartiesRoutes.create;
