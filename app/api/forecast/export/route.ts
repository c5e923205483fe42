import { forecastRoutes } from "@/lib/bff/areas/forecast/routes";

export const GET = forecastRoutes.export;
