import type { SearchParams } from "nuqs/server";
import type { BffContext } from "@/lib/bff/context";
import { loadData, loadPage, type LoadFailure } from "@/lib/bff/page";
import { getGroupReport, type GroupReportKind } from "@/lib/bff/queries/group-reports";
import { getGroupCategories } from "@/lib/bff/queries/group-categories";
import { reportingCurrencyFor } from "@/lib/group/reporting-currency";
import type { ResolvedRange } from "@/lib/url-state/date-range";
import { GroupReportView } from "@/components/reports/group-report";
import { GroupCategoryCashflow } from "@/components/reports/group-category-cashflow";
import { RetryProblem } from "@/components/ui/retry-problem";
import { endpointUrl, type Endpoint } from "@/lib/bff/endpoint";
import type { ComponentProps, ReactNode } from "react";
import { todayUtc } from "@/lib/dates";
import { loadDateRange, resolveDateRange } from "@/lib/url-state/date-range";
import { ReportShell } from "@/components/reports/report-shell";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";
import { groupEndpoints } from "@/lib/bff/areas/group/endpoints";

/** The scope of a report page: none (one company, no switch), the selected company or the whole group. */
export async function reportScope(
  ctx: BffContext,
  searchParams: Promise<SearchParams>,
): Promise<"company" | "group" | undefined> {
  if (ctx.companies.length < 2) return undefined;
  return (await searchParams).scope === "group" ? "group" : "company";
}

/** The CSV export of a group report for the shown range. */
export function groupExport(kind: GroupReportKind, range: ResolvedRange): { href: string; name: string } {
  const e = groupEndpoints.reportExport;
  return kind === "forecast"
    ? { href: endpointUrl(e, { kind }), name: "group_forecast.csv" }
    : {
        href: endpointUrl(e, { kind }, { from_date: range.from_date, to_date: range.to_date }),
        name: `group_${kind}_${range.from_date}_${range.to_date}.csv`,
      };
}

/** The group report of every company the user may see in their reporting currency, loaded (never rejects). */
export function loadGroupReport(ctx: BffContext, kind: GroupReportKind, range: ResolvedRange) {
  return loadData(ctx, async () =>
    getGroupReport(ctx, kind, range, (await reportingCurrencyFor(ctx.user.id)).currency),
  );
}

/**
 * The group report of every company the user may see, in their reporting
 * currency (`data`: already started with {@link loadGroupReport}, else loaded
 * here). The per-row lines stay on the server (the CSV carries them).
 */
export async function GroupReportSection({
  ctx,
  kind,
  range,
  data: started,
}: {
  ctx: BffContext;
  kind: GroupReportKind;
  range: ResolvedRange;
  data?: ReturnType<typeof loadGroupReport>;
}) {
  const data = await (started ?? loadGroupReport(ctx, kind, range));
  return data.ok ? (
    <GroupReportView report={{ ...data.data, lines: [] }} />
  ) : (
    <RetryProblem title={data.title} message={data.message} requestId={data.requestId} kind={data.kind} />
  );
}

/**
 * The group cashflow of the range per category (every company the user may see, in their reporting currency), with
 * its CSV. The per-line figures stay on the server (the CSV carries them). Its reads (every company's transactions)
 * start once `after` has settled, so they do not compete with the reads of the figure shown first.
 */
export async function GroupCategorySection({
  ctx,
  range,
  after,
}: {
  ctx: BffContext;
  range: ResolvedRange;
  after?: Promise<unknown>;
}) {
  await after?.catch(() => undefined);
  const data = await loadData(ctx, async () =>
    getGroupCategories(ctx, range, (await reportingCurrencyFor(ctx.user.id)).currency),
  );
  return data.ok ? (
    <GroupCategoryCashflow
      report={{ ...data.data, lines: [] }}
      exportHref={endpointUrl(
        groupEndpoints.categoriesExport,
        {},
        {
          from_date: range.from_date,
          to_date: range.to_date,
        },
      )}
    />
  ) : (
    <RetryProblem title={data.title} message={data.message} requestId={data.requestId} kind={data.kind} />
  );
}

/**
 * What every report page starts with: the page load (the `reports` area, a selected company), the resolved range
 * (30 days by default) and the scope. A failed load comes back as the element to render instead.
 */
export async function loadReportPage(searchParams: Promise<SearchParams>) {
  const load = await loadPage("reports", { company: "required" });
  if (!load.ok) return { problem: <PageProblem load={load} /> } as const;
  const { ctx } = load;
  const range = resolveDateRange(await loadDateRange(searchParams), todayUtc(), "30d");
  return { ctx, range, scope: await reportScope(ctx, searchParams) } as const;
}

/** A company report's CSV export of the shown range: `endpoint` with from_date / to_date (and more `query`). */
export function rangeExport(
  endpoint: Endpoint<"GET", `/api/${string}`>,
  range: ResolvedRange,
  query: Record<string, string | number> = {},
): string {
  return endpointUrl(endpoint, {}, { from_date: range.from_date, to_date: range.to_date, ...query });
}

/** One report page: the "Reports" header with its description, then the tabs, range and export around the report. */
export function ReportPage({
  description,
  after,
  ...shell
}: ComponentProps<typeof ReportShell> & { description: string; after?: ReactNode }) {
  return (
    <div className="max-w-6xl">
      <PageHeader title="Reports" description={description} />
      <ReportShell {...shell} />
      {after}
    </div>
  );
}

/** A loaded part of a report: `children(data)`, or the load's problem with a retry. */
export function Loaded<T>({
  result,
  children,
}: {
  result: { ok: true; data: T } | LoadFailure;
  children: (data: T) => ReactNode;
}) {
  return result.ok ? (
    children(result.data)
  ) : (
    <RetryProblem title={result.title} message={result.message} requestId={result.requestId} kind={result.kind} />
  );
}
