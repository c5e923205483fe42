import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { loadData } from "@/lib/bff/page";
import { getPositionsRange } from "@/lib/bff/queries/views";
import { PositionsReport } from "@/components/reports/positions-report";
import { reportingEndpoints } from "@/lib/bff/areas/reporting/endpoints";
import { GroupReportSection, groupExport, Loaded, loadReportPage, rangeExport, ReportPage } from "../report-page";

export const metadata: Metadata = { title: "Positions" };

/** Positions report. */
export default async function PositionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const page = await loadReportPage(searchParams);
  if ("problem" in page) return page.problem;
  const { ctx, range, scope } = page;
  if (scope === "group") {
    const csv = groupExport("positions", range);
    return (
      <ReportPage
        description={`Daily cash position (closing booked) of all ${ctx.companies.length} companies in one currency`}
        range={range}
        exportHref={csv.href}
        exportName={csv.name}
        scope={scope}
      >
        <GroupReportSection ctx={ctx} kind="positions" range={range} />
      </ReportPage>
    );
  }
  const data = await loadData(ctx, () => getPositionsRange(ctx, range.from_date, range.to_date));
  return (
    <ReportPage
      description={`Daily cash position (closing booked balances) per currency at ${ctx.company.name}`}
      range={range}
      exportHref={rangeExport(reportingEndpoints.positionsExport, range)}
      exportName="positions.csv"
      scope={scope}
      companyName={ctx.company.name}
    >
      <Loaded result={data}>{(rows) => <PositionsReport rows={rows} />}</Loaded>
    </ReportPage>
  );
}
