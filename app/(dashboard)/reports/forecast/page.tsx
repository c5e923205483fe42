import type { Metadata } from "next";
import { Suspense } from "react";
import type { SearchParams } from "nuqs/server";
import { loadData } from "@/lib/bff/page";
import { getForecast, getPositionsRange } from "@/lib/bff/queries/views";
import { loadForecastHorizon } from "@/lib/url-state/forecast-horizon";
import { ForecastReport } from "@/components/reports/forecast-report";
import { GroupReportSection, groupExport, Loaded, loadReportPage, rangeExport, ReportPage } from "../report-page";
import { can } from "@/lib/auth/roles";
import { getCashForecast, getForecastVariance } from "@/lib/bff/queries/cash-forecast";
import { forecastInputsView } from "@/lib/bff/queries/forecast";
import { resolveReportingCurrency } from "@/lib/bff/queries/group-reports";
import type { BffContext } from "@/lib/bff/context";
import { CashForecast } from "@/components/forecast/cash-forecast";
import { reportingEndpoints } from "@/lib/bff/areas/reporting/endpoints";

/** The cash forecast of every company the user may see (docs/forecast.md), below the spec's per-currency forecast. */
async function CashForecastSection({ ctx }: { ctx: BffContext }) {
  const data = await loadData(ctx, async () => {
    const rc = await resolveReportingCurrency(ctx.user.id, undefined);
    const [view, inputs] = await Promise.all([
      getCashForecast(ctx, { weeks: 13, granularity: "week", scenarios: [] }, rc),
      forecastInputsView(ctx),
    ]);
    // After the forecast (its base is then cached); a failed read leaves the variance section out, not the forecast.
    const variance = await getForecastVariance(ctx, { weeks: 8 }, rc).catch(() => null);
    return { view, inputs, variance };
  });
  return (
    <section aria-labelledby="cash-forecast-title" className="mt-10 space-y-4">
      <h2 id="cash-forecast-title" className="text-lg font-semibold text-slate-900">
        Cash forecast
      </h2>
      <Loaded result={data}>
        {(d) => (
          <CashForecast
            initial={d.view}
            inputs={d.inputs}
            variance={d.variance}
            canManage={can(ctx.user.roles, "forecast.manage")}
          />
        )}
      </Loaded>
    </section>
  );
}

/** While the cash forecast computes (seconds: docs/forecast.md "Speed"), the report above it is already shown. */
function CashForecastLoading() {
  return (
    <p className="mt-10 text-[13px] text-slate-600" role="status">
      Computing the cash forecast…
    </p>
  );
}

export const metadata: Metadata = { title: "Forecast" };

/**
 * Forecast report: the spec's forecast, then the cash forecast of the user's companies (13 weeks by default,
 * scenarios, manual lines, accuracy). For the spec's forecast, the chosen range sets how much actual history leads into the forecast; `horizon` (7 / 30 / 90
 * days, URL state) how far ahead it reaches.
 */
export default async function ForecastPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const page = await loadReportPage(searchParams);
  if ("problem" in page) return page.problem;
  const { ctx, range, scope } = page;
  const cashForecast = (
    <Suspense fallback={<CashForecastLoading />}>
      <CashForecastSection ctx={ctx} />
    </Suspense>
  );
  if (scope === "group") {
    const csv = groupExport("forecast", range);
    return (
      <ReportPage
        description={`Expected position of all ${ctx.companies.length} companies in one currency`}
        range={range}
        exportHref={csv.href}
        exportName={csv.name}
        scope={scope}
        showRange={false}
        after={cashForecast}
      >
        <GroupReportSection ctx={ctx} kind="forecast" range={range} />
      </ReportPage>
    );
  }
  const { horizon } = await loadForecastHorizon(searchParams);
  const [positions, forecast] = await Promise.all([
    loadData(ctx, () => getPositionsRange(ctx, range.from_date, range.to_date)),
    loadData(ctx, () => getForecast(ctx, horizon)),
  ]);
  return (
    <ReportPage
      description={
        `Expected position per currency at ${ctx.company.name}, continuing the actual positions of the ` +
        `chosen range`
      }
      range={range}
      exportHref={rangeExport(reportingEndpoints.forecastExport, range, { horizon })}
      exportName={`forecast_${range.from_date}_${range.to_date}_${horizon}d.csv`}
      scope={scope}
      companyName={ctx.company.name}
      after={cashForecast}
    >
      <Loaded result={forecast}>
        {(f) => <ForecastReport positions={positions.ok ? positions.data : []} forecast={f} horizon={horizon} />}
      </Loaded>
    </ReportPage>
  );
}
