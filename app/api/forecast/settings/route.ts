import { z } from "zod";
import { withUser } from "@/lib/bff/route";
import { setThreshold, switchRecurring } from "@/lib/bff/queries/forecast";
import { RecurringSwitchInput, ThresholdInput } from "@/lib/forecast/inputs";

const Body = z.union([RecurringSwitchInput, ThresholdInput], {
  message: "must be { id, enabled } (a recurring payee) or { company_id, amount } (a minimum-cash threshold)",
});

/**
 * POST /api/forecast/settings — `{ id, enabled }` switches a detected recurring payee on or off; `{ company_id,
 * amount }` sets a company's minimum cash in the reporting currency (null removes it). Idempotent; 400 naming the
 * field; audited `forecast_setting.change` with the value before and after.
 */
export const POST = withUser(
  {
    permission: "forecast.manage",
    company: "none",
    body: Body,
    audit: { action: "forecast_setting.change", objectType: "forecast_setting" },
  },
  async (ctx) => {
    const b = ctx.body;
    const r =
      "enabled" in b ? await switchRecurring(ctx, b.id, b.enabled) : await setThreshold(ctx, b.company_id, b.amount);
    ctx.audit.objectId = "enabled" in b ? `recurring:${b.id}` : `threshold:${b.company_id}`;
    ctx.audit.details = { before: r.before, after: "enabled" in b ? r.after : r.after };
    return r;
  },
);
