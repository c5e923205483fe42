import { forecastRoutes } from "@/lib/bff/areas/forecast/routes";

export const PUT = forecastRoutes.changeLine;
export const DELETE = forecastRoutes.removeLine;
