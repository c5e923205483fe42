import { itemRoutes } from "@/lib/bff/item-routes";
import { changeScenario, removeScenario } from "@/lib/bff/queries/forecast";
import { ScenarioInput } from "@/lib/forecast/inputs";

const routes = itemRoutes({
  permission: "forecast.manage",
  audit: { objectType: "forecast_scenario", update: "forecast_scenario.update", delete: "forecast_scenario.delete" },
  body: ScenarioInput,
  change: changeScenario,
  remove: removeScenario,
});

/** PUT /api/forecast/scenarios/{id} — replaces a scenario; 404 unknown, 409 duplicate name; audited before/after. */
export const PUT = routes.PUT;

/** DELETE /api/forecast/scenarios/{id} — 204; 404 unknown; audited with the scenario as it was. */
export const DELETE = routes.DELETE;
