import { counterpartiesRoutes } from "@/lib/bff/areas/counterparties/routes";

export const GET = counterpartiesRoutes.history;
