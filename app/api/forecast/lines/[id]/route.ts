import { itemRoutes } from "@/lib/bff/item-routes";
import { changeManualLine, removeManualLine } from "@/lib/bff/queries/forecast";
import { ManualLineInput } from "@/lib/forecast/inputs";

const routes = itemRoutes({
  permission: "forecast.manage",
  audit: { objectType: "forecast_line", update: "forecast_line.update", delete: "forecast_line.delete" },
  body: ManualLineInput,
  change: changeManualLine,
  remove: removeManualLine,
});

/** PUT /api/forecast/lines/{id} — replaces a manual line (owner kept); 404 unknown; audited before/after. */
export const PUT = routes.PUT;

/** DELETE /api/forecast/lines/{id} — 204; 404 unknown; audited with the line as it was. */
export const DELETE = routes.DELETE;
