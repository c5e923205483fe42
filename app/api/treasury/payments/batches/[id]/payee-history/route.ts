import { paymentsRoutes } from "@/lib/bff/areas/payments/routes";

export const GET = paymentsRoutes.payeeHistory;
