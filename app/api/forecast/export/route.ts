import { z } from "zod";
import { withUser } from "@/lib/bff/route";
import { getCashForecast } from "@/lib/bff/queries/cash-forecast";
import { resolveReportingCurrency } from "@/lib/bff/queries/group-reports";
import { csvHeaders } from "@/lib/csv/csv-stream";
import { comparisonCsv, forecastCsv } from "@/lib/forecast/exports";
import { ForecastQuery } from "@/lib/forecast/inputs";

const ExportQuery = ForecastQuery.extend({
  kind: z.enum(["forecast", "comparison"], { message: "must be forecast or comparison" }).default("forecast"),
});

/**
 * GET /api/forecast/export — CSV of the forecast (`kind=forecast`: per bucket, company, currency and category with
 * the rates and their dates) or of the scenario comparison (`kind=comparison`: daily group balance per case, lowest
 * balance marked, rates). Same query as `GET /api/forecast`; 400 naming the field.
 */
export const GET = withUser({ permission: "reports.read", company: "none", query: ExportQuery }, async (ctx) => {
  const q = ctx.query;
  const rc = await resolveReportingCurrency(ctx.user.id, q.currency);
  const v = await getCashForecast(ctx, { weeks: q.weeks, granularity: q.granularity, scenarios: q.scenarios }, rc);
  const text =
    q.kind === "forecast"
      ? forecastCsv(v.rows, rc, v.fx)
      : comparisonCsv(
          [
            { name: "Base case", balances: v.base, fx: v.fx },
            ...v.scenarios.map((s) => ({ name: s.name, balances: s.balances, fx: s.fx })),
          ],
          rc,
        );
  const name = `forecast_${q.kind}_${v.from}_${v.weeks}w_${rc}.csv`;
  return new Response(text, { status: 200, headers: csvHeaders(name, null) });
});
