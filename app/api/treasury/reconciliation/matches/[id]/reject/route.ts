import { reconciliationRoutes } from "@/lib/bff/areas/reconciliation/routes";

export const POST = reconciliationRoutes.reject;
