import { reconciliationRoutes } from "@/lib/bff/areas/reconciliation/routes";

export const GET = reconciliationRoutes.review;
