import { withUser } from "@/lib/bff/route";
import { getCashForecast } from "@/lib/bff/queries/cash-forecast";
import { resolveReportingCurrency } from "@/lib/bff/queries/group-reports";
import { ForecastQuery } from "@/lib/forecast/inputs";

/**
 * GET /api/forecast — the cash forecast of the user's companies (docs/forecast.md#the-routes): `weeks` 1–26
 * (default 13), `granularity` day|week, up to 3 `scenarios` (comma-separated ids), `currency` (reporting currency,
 * default the user's), `refresh=1` recomputes. 400 naming the field for a bad query.
 */
export const GET = withUser({ permission: "reports.read", company: "none", query: ForecastQuery }, async (ctx) => {
  const rc = await resolveReportingCurrency(ctx.user.id, ctx.query.currency);
  return getCashForecast(
    ctx,
    {
      weeks: ctx.query.weeks,
      granularity: ctx.query.granularity,
      scenarios: ctx.query.scenarios,
      refresh: ctx.query.refresh === "1",
    },
    rc,
  );
});
