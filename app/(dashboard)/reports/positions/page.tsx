import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { loadData, loadPage } from "@/lib/bff/page";
import { getPositionsRange } from "@/lib/bff/queries/views";
import { todayUtc } from "@/lib/dates";
import { loadDateRange, resolveDateRange } from "@/lib/url-state/date-range";
import { ReportShell } from "@/components/reports/report-shell";
import { PositionsReport } from "@/components/reports/positions-report";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";
import { RetryProblem } from "@/components/ui/retry-problem";
import { GroupReportSection, groupExport, reportScope } from "../group-section";
import { endpointUrl } from "@/lib/bff/endpoint";
import { reportingEndpoints } from "@/lib/bff/areas/reporting/endpoints";

export const metadata: Metadata = { title: "Positions" };

/** Positions report. */
export default async function PositionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const load = await loadPage("reports", { company: "required" });
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const range = resolveDateRange(await loadDateRange(searchParams), todayUtc(), "30d");
  const scope = await reportScope(ctx, searchParams);
  if (scope === "group") {
    const csv = groupExport("positions", range);
    return (
      <div className="max-w-6xl">
        <PageHeader
          title="Reports"
          description={`Daily cash position (closing booked) of all ${ctx.companies.length} companies in one currency`}
        />
        <ReportShell range={range} exportHref={csv.href} exportName={csv.name} scope={scope}>
          <GroupReportSection ctx={ctx} kind="positions" range={range} />
        </ReportShell>
      </div>
    );
  }
  const data = await loadData(ctx, () => getPositionsRange(ctx, range.from_date, range.to_date));
  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Reports"
        description={`Daily cash position (closing booked balances) per currency at ${ctx.company.name}`}
      />
      <ReportShell
        range={range}
        exportHref={endpointUrl(
          reportingEndpoints.positionsExport,
          {},
          { from_date: range.from_date, to_date: range.to_date },
        )}
        exportName="positions.csv"
        scope={scope}
        companyName={ctx.company.name}
      >
        {data.ok ? (
          <PositionsReport rows={data.data} />
        ) : (
          <RetryProblem title={data.title} message={data.message} requestId={data.requestId} kind={data.kind} />
        )}
      </ReportShell>
    </div>
  );
}
