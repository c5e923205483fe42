import { paymentsRoutes } from "@/lib/bff/areas/payments/routes";

export const GET = paymentsRoutes.batch;
export const PATCH = paymentsRoutes.update;
export const DELETE = paymentsRoutes.discard;
