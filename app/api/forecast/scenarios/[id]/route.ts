import { IdParams, withUser } from "@/lib/bff/route";
import { changeScenario, removeScenario } from "@/lib/bff/queries/forecast";
import { ScenarioInput } from "@/lib/forecast/inputs";

/** PUT /api/forecast/scenarios/{id} — replaces a scenario; 404 unknown, 409 duplicate name; audited before/after. */
export const PUT = withUser(
  {
    permission: "forecast.manage",
    company: "none",
    params: IdParams,
    body: ScenarioInput,
    audit: { action: "forecast_scenario.update", objectType: "forecast_scenario" },
  },
  async (ctx) => {
    const { before, after } = await changeScenario(ctx.params.id, ctx.body);
    ctx.audit.details = { before, after };
    return after;
  },
);

/** DELETE /api/forecast/scenarios/{id} — 204; 404 unknown; audited with the scenario as it was. */
export const DELETE = withUser(
  {
    permission: "forecast.manage",
    company: "none",
    params: IdParams,
    audit: { action: "forecast_scenario.delete", objectType: "forecast_scenario" },
  },
  async (ctx) => {
    const before = await removeScenario(ctx.params.id);
    ctx.audit.details = { before, after: null };
    return undefined;
  },
);
