import { forecastRoutes } from "@/lib/bff/areas/forecast/routes";

export const PUT = forecastRoutes.changeScenario;
export const DELETE = forecastRoutes.removeScenario;
