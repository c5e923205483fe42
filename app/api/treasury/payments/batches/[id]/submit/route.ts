import { paymentsRoutes } from "@/lib/bff/areas/payments/routes";

export const POST = paymentsRoutes.submit;
