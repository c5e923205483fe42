import { Suspense } from "react";
import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { loadData, loadPage } from "@/lib/bff/page";
import { getCashflowRange } from "@/lib/bff/queries/views";
import { getCashflowByCategory } from "@/lib/bff/queries/categories";
import { CategoryCashflow } from "@/components/reports/category-cashflow";
import { todayUtc } from "@/lib/dates";
import { loadDateRange, resolveDateRange } from "@/lib/url-state/date-range";
import { ReportShell } from "@/components/reports/report-shell";
import { CashflowReport } from "@/components/reports/cashflow-report";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";
import { RetryProblem } from "@/components/ui/retry-problem";
import { GroupCategorySection, GroupReportSection, groupExport, loadGroupReport, reportScope } from "../group-section";
import { endpointUrl } from "@/lib/bff/endpoint";
import { reportingEndpoints } from "@/lib/bff/areas/reporting/endpoints";

export const metadata: Metadata = { title: "Cashflow" };

/** Cashflow report. */
export default async function CashflowPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const load = await loadPage("reports", { company: "required" });
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const range = resolveDateRange(await loadDateRange(searchParams), todayUtc(), "30d");
  const scope = await reportScope(ctx, searchParams);
  if (scope === "group") {
    const csv = groupExport("cashflow", range);
    const report = loadGroupReport(ctx, "cashflow", range);
    return (
      <div className="max-w-6xl">
        <PageHeader
          title="Reports"
          description={`Daily inflow, outflow and net of all ${ctx.companies.length} companies in one currency`}
        />
        <ReportShell range={range} exportHref={csv.href} exportName={csv.name} scope={scope}>
          <div className="space-y-6">
            <GroupReportSection ctx={ctx} kind="cashflow" range={range} data={report} />
            {/* Streamed after the cashflow, whose reads go first: it reads every company's transactions. */}
            <Suspense
              fallback={
                <p className="text-[13px] text-slate-600" role="status" data-testid="group-categories-loading">
                  Loading the categories of every company…
                </p>
              }
            >
              <GroupCategorySection ctx={ctx} range={range} after={report} />
            </Suspense>
          </div>
        </ReportShell>
      </div>
    );
  }
  const [data, byCategory] = await Promise.all([
    loadData(ctx, () => getCashflowRange(ctx, range.from_date, range.to_date)),
    loadData(ctx, () => getCashflowByCategory(ctx, range.from_date, range.to_date)),
  ]);
  return (
    <div className="max-w-6xl">
      <PageHeader title="Reports" description={`Daily inflow, outflow and net per currency at ${ctx.company.name}`} />
      <ReportShell
        range={range}
        exportHref={endpointUrl(
          reportingEndpoints.cashflowExport,
          {},
          { from_date: range.from_date, to_date: range.to_date },
        )}
        exportName="cashflow.csv"
        scope={scope}
        companyName={ctx.company.name}
      >
        {data.ok ? (
          <CashflowReport rows={data.data} />
        ) : (
          <RetryProblem title={data.title} message={data.message} requestId={data.requestId} kind={data.kind} />
        )}
        {byCategory.ok ? (
          <CategoryCashflow
            rows={byCategory.data.rows}
            truncated={byCategory.data.truncated}
            from={range.from_date}
            to={range.to_date}
            exportHref={endpointUrl(
              reportingEndpoints.cashflowCategoriesExport,
              {},
              { from_date: range.from_date, to_date: range.to_date },
            )}
          />
        ) : (
          <RetryProblem
            title={byCategory.title}
            message={byCategory.message}
            requestId={byCategory.requestId}
            kind={byCategory.kind}
          />
        )}
      </ReportShell>
    </div>
  );
}
