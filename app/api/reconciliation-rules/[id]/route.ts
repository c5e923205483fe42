import { reconciliationRoutes } from "@/lib/bff/areas/reconciliation/routes";

export const PUT = reconciliationRoutes.changeRule;
export const DELETE = reconciliationRoutes.removeRule;
