import { IdParams, withUser } from "@/lib/bff/route";
import { changeManualLine, removeManualLine } from "@/lib/bff/queries/forecast";
import { ManualLineInput } from "@/lib/forecast/inputs";

/** PUT /api/forecast/lines/{id} — replaces a manual line (owner kept); 404 unknown; audited before/after. */
export const PUT = withUser(
  {
    permission: "forecast.manage",
    company: "none",
    params: IdParams,
    body: ManualLineInput,
    audit: { action: "forecast_line.update", objectType: "forecast_line" },
  },
  async (ctx) => {
    const { before, after } = await changeManualLine(ctx, ctx.params.id, ctx.body);
    ctx.audit.details = { before, after };
    return after;
  },
);

/** DELETE /api/forecast/lines/{id} — 204; 404 unknown; audited with the line as it was. */
export const DELETE = withUser(
  {
    permission: "forecast.manage",
    company: "none",
    params: IdParams,
    audit: { action: "forecast_line.delete", objectType: "forecast_line" },
  },
  async (ctx) => {
    const before = await removeManualLine(ctx.params.id);
    ctx.audit.details = { before, after: null };
    return undefined;
  },
);
