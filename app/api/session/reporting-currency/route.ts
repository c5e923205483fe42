import { sessionRoutes } from "@/lib/bff/areas/session/routes";

export const GET = sessionRoutes.reportingCurrency;
export const PUT = sessionRoutes.setReportingCurrency;
