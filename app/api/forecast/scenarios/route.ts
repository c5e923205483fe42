import { forecastRoutes } from "@/lib/bff/areas/forecast/routes";

export const POST = forecastRoutes.addScenario;
