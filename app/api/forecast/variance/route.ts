import { withUser } from "@/lib/bff/route";
import { getForecastVariance } from "@/lib/bff/queries/cash-forecast";
import { resolveReportingCurrency } from "@/lib/bff/queries/group-reports";
import { VarianceQuery } from "@/lib/forecast/inputs";

/**
 * GET /api/forecast/variance — forecast against actuals of the user's companies (docs/forecast.md#variance): the
 * last `weeks` complete ISO weeks (1–26, default 8), each week's forecast from the latest snapshot taken before it
 * began against the booked transactions, with difference, percent and the window's WAPE, per week and per category
 * (`category=` restricts to one), in the reporting `currency` (default the user's). 400 naming the field.
 */
export const GET = withUser({ permission: "reports.read", company: "none", query: VarianceQuery }, async (ctx) => {
  const rc = await resolveReportingCurrency(ctx.user.id, ctx.query.currency);
  return getForecastVariance(ctx, { weeks: ctx.query.weeks, category: ctx.query.category ?? null }, rc);
});
