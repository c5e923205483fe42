import { withUser } from "@/lib/bff/route";
import { addScenario } from "@/lib/bff/queries/forecast";
import { ScenarioInput } from "@/lib/forecast/inputs";

/**
 * POST /api/forecast/scenarios — 201: a named scenario of a team with its adjustments (lib/forecast/inputs.ts
 * `ScenarioInput`); 400 naming the field (a shift of 400 days: `adjustments[0].days`), 409 for a name the team
 * already uses. Audited `forecast_scenario.create`.
 */
export const POST = withUser(
  {
    permission: "forecast.manage",
    company: "none",
    body: ScenarioInput,
    status: 201,
    audit: { action: "forecast_scenario.create", objectType: "forecast_scenario" },
  },
  async (ctx) => {
    const scenario = await addScenario(ctx, ctx.body);
    ctx.audit.objectId = scenario.id;
    ctx.audit.details = { before: null, after: scenario };
    return scenario;
  },
);
