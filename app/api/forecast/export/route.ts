import { z } from "zod";
import { withUser } from "@/lib/bff/route";
import { getCashForecast, getForecastVariance } from "@/lib/bff/queries/cash-forecast";
import { resolveReportingCurrency } from "@/lib/bff/queries/group-reports";
import { csvHeaders } from "@/lib/csv/csv-stream";
import { xlsxHeaders } from "@/lib/csv/xlsx";
import {
  comparisonCsv,
  comparisonXlsx,
  forecastCsv,
  forecastXlsx,
  varianceCsv,
  varianceXlsx,
} from "@/lib/forecast/exports";
import { ForecastQuery, VarianceQuery } from "@/lib/forecast/inputs";

const ExportQuery = ForecastQuery.extend({
  kind: z
    .enum(["forecast", "comparison", "variance"], { message: "must be forecast, comparison or variance" })
    .default("forecast"),
  format: z.enum(["csv", "xlsx"], { message: "must be csv or xlsx" }).default("csv"),
  category: VarianceQuery.shape.category,
});

/**
 * GET /api/forecast/export — the forecast (`kind=forecast`: per bucket, company, currency and category with the
 * rates and their dates) or the scenario comparison (`kind=comparison`: daily group balance per case, lowest balance
 * marked, rates) or the variance table (`kind=variance`: the last `weeks` complete weeks, per week and category,
 * optionally one `category`; docs/forecast.md#variance), as CSV (`format=csv`, the default) or XLSX (`format=xlsx`: the same rows plus a "Rates" sheet;
 * docs/forecast.md#exports). Same query as `GET /api/forecast`; 400 naming the field.
 */
export const GET = withUser({ permission: "reports.read", company: "none", query: ExportQuery }, async (ctx) => {
  const q = ctx.query;
  const rc = await resolveReportingCurrency(ctx.user.id, q.currency);
  if (q.kind === "variance") {
    const v = await getForecastVariance(ctx, { weeks: q.weeks, category: q.category ?? null }, rc);
    const file = `forecast_variance_${v.from}_${q.weeks}w_${rc}.${q.format}`;
    return q.format === "xlsx"
      ? new Response(await varianceXlsx(v, v.rates), { status: 200, headers: xlsxHeaders(file) })
      : new Response(varianceCsv(v), { status: 200, headers: csvHeaders(file, null) });
  }
  const v = await getCashForecast(ctx, { weeks: q.weeks, granularity: q.granularity, scenarios: q.scenarios }, rc);
  const cases = [
    { name: "Base case", balances: v.base, fx: v.fx },
    ...v.scenarios.map((s) => ({ name: s.name, balances: s.balances, fx: s.fx })),
  ];
  const name = `forecast_${q.kind}_${v.from}_${v.weeks}w_${rc}.${q.format}`;
  if (q.format === "xlsx") {
    const bytes = q.kind === "forecast" ? await forecastXlsx(v.rows, rc, v.fx) : await comparisonXlsx(cases, rc);
    return new Response(bytes, { status: 200, headers: xlsxHeaders(name) });
  }
  const text = q.kind === "forecast" ? forecastCsv(v.rows, rc, v.fx) : comparisonCsv(cases, rc);
  return new Response(text, { status: 200, headers: csvHeaders(name, null) });
});
