import { withUser } from "@/lib/bff/route";
import { addManualLine, forecastInputsView } from "@/lib/bff/queries/forecast";
import { ManualLineInput } from "@/lib/forecast/inputs";

/** GET /api/forecast/lines — manual lines, scenarios, recurring switches and thresholds (docs/forecast.md#the-routes). */
export const GET = withUser({ permission: "reports.read", company: "none" }, (ctx) => forecastInputsView(ctx));

/**
 * POST /api/forecast/lines — 201: a manual line (lib/forecast/inputs.ts `ManualLineInput`), owned by the signed-in
 * user; 400 naming the field (a bad currency: `currency`). Audited `forecast_line.create`.
 */
export const POST = withUser(
  {
    permission: "forecast.manage",
    company: "none",
    body: ManualLineInput,
    status: 201,
    audit: { action: "forecast_line.create", objectType: "forecast_line" },
  },
  async (ctx) => {
    const line = await addManualLine(ctx, ctx.body);
    ctx.audit.objectId = line.id;
    ctx.audit.details = { before: null, after: line };
    return line;
  },
);
