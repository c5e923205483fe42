import { Suspense } from "react";
import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { loadData } from "@/lib/bff/page";
import { getCashflowRange } from "@/lib/bff/queries/views";
import { getCashflowByCategory } from "@/lib/bff/queries/categories";
import { CategoryCashflow } from "@/components/reports/category-cashflow";
import { CashflowReport } from "@/components/reports/cashflow-report";
import { reportingEndpoints } from "@/lib/bff/areas/reporting/endpoints";
import {
  GroupCategorySection,
  GroupReportSection,
  groupExport,
  Loaded,
  loadGroupReport,
  loadReportPage,
  rangeExport,
  ReportPage,
} from "../report-page";

export const metadata: Metadata = { title: "Cashflow" };

/** Cashflow report. */
export default async function CashflowPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const page = await loadReportPage(searchParams);
  if ("problem" in page) return page.problem;
  const { ctx, range, scope } = page;
  if (scope === "group") {
    const csv = groupExport("cashflow", range);
    const report = loadGroupReport(ctx, "cashflow", range);
    return (
      <ReportPage
        description={`Daily inflow, outflow and net of all ${ctx.companies.length} companies in one currency`}
        range={range}
        exportHref={csv.href}
        exportName={csv.name}
        scope={scope}
      >
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
      </ReportPage>
    );
  }
  const [data, byCategory] = await Promise.all([
    loadData(ctx, () => getCashflowRange(ctx, range.from_date, range.to_date)),
    loadData(ctx, () => getCashflowByCategory(ctx, range.from_date, range.to_date)),
  ]);
  return (
    <ReportPage
      description={`Daily inflow, outflow and net per currency at ${ctx.company.name}`}
      range={range}
      exportHref={rangeExport(reportingEndpoints.cashflowExport, range)}
      exportName="cashflow.csv"
      scope={scope}
      companyName={ctx.company.name}
    >
      <Loaded result={data}>{(rows) => <CashflowReport rows={rows} />}</Loaded>
      <Loaded result={byCategory}>
        {(c) => (
          <CategoryCashflow
            rows={c.rows}
            truncated={c.truncated}
            from={range.from_date}
            to={range.to_date}
            exportHref={rangeExport(reportingEndpoints.cashflowCategoriesExport, range)}
          />
        )}
      </Loaded>
    </ReportPage>
  );
}
