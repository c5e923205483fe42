import { reportingRoutes } from "@/lib/bff/areas/reporting/routes";

export const GET = reportingRoutes.forecast;
