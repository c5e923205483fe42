import { counterpartiesRoutes } from "@/lib/bff/areas/counterparties/routes";

export const POST = counterpartiesRoutes.reject;
