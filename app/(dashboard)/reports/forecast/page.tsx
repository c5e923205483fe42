import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { loadData, loadPage } from "@/lib/bff/page";
import { getForecast, getPositionsRange } from "@/lib/bff/queries/views";
import { todayUtc } from "@/lib/dates";
import { loadDateRange, resolveDateRange } from "@/lib/url-state/date-range";
import { loadForecastHorizon } from "@/lib/url-state/forecast-horizon";
import { ReportShell } from "@/components/reports/report-shell";
import { ForecastReport } from "@/components/reports/forecast-report";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";
import { RetryProblem } from "@/components/ui/retry-problem";
import { GroupReportSection, groupExport, reportScope } from "../group-section";

export const metadata: Metadata = { title: "Forecast" };

/**
 * Forecast report: the chosen range sets how much actual history leads into the forecast; `horizon` (7 / 30 / 90
 * days, URL state) how far ahead it reaches.
 */
export default async function ForecastPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const load = await loadPage("reports", { company: "required" });
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const range = resolveDateRange(await loadDateRange(searchParams), todayUtc(), "30d");
  const scope = await reportScope(ctx, searchParams);
  if (scope === "group") {
    const csv = groupExport("forecast", range);
    return (
      <div className="max-w-6xl">
        <PageHeader
          title="Reports"
          description={`Expected position of all ${ctx.companies.length} companies in one currency`}
        />
        <ReportShell range={range} exportHref={csv.href} exportName={csv.name} scope={scope} showRange={false}>
          <GroupReportSection ctx={ctx} kind="forecast" range={range} />
        </ReportShell>
      </div>
    );
  }
  const { horizon } = await loadForecastHorizon(searchParams);
  const [positions, forecast] = await Promise.all([
    loadData(ctx, () => getPositionsRange(ctx, range.from_date, range.to_date)),
    loadData(ctx, () => getForecast(ctx, horizon)),
  ]);
  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Reports"
        description={
          `Expected position per currency at ${ctx.company.name}, continuing the actual positions of the ` +
          `chosen range`
        }
      />
      <ReportShell
        range={range}
        exportHref={`/api/treasury/reporting/forecast/export?from_date=${range.from_date}&to_date=${range.to_date}&horizon=${horizon}`}
        exportName={`forecast_${range.from_date}_${range.to_date}_${horizon}d.csv`}
        scope={scope}
        companyName={ctx.company.name}
      >
        {!forecast.ok ? (
          <RetryProblem
            title={forecast.title}
            message={forecast.message}
            requestId={forecast.requestId}
            kind={forecast.kind}
          />
        ) : (
          <ForecastReport positions={positions.ok ? positions.data : []} forecast={forecast.data} horizon={horizon} />
        )}
      </ReportShell>
    </div>
  );
}
