/**
 * The group cashflow by category of the signed-in user (lib/group/group-categories.ts) read through the process's
 * treasury client: only the user's visible companies (`ctx.companies`), each company's transactions of the range
 * with its own `X-Company-ID` (bounded like the single-company category table: ./categories.ts), at most
 * {@link GROUP_REPORT_CONCURRENCY} companies at once, as background reads; the category rules and the rates come
 * from the dashboard database. Also its CSV: one line per (company, category, booking date, currency) with the
 * original figures, the rate used, its date and the converted figures.
 */
import "server-only";
import { formatISO } from "date-fns";
import { csvHeaders, toCsv, type CsvColumn } from "../../csv/csv-stream";
import { loadFxRates } from "../../fx/convert";
import {
  groupCashflowByCategory,
  type GroupCategoryLine,
  type GroupCategoryReport,
} from "../../group/group-categories";
import { dashboardDb } from "../../server/db";
import type { BffContext } from "../context";
import { categoryRules, readTransactionRange } from "./categories";
import { GROUP_REPORT_CONCURRENCY, type GroupReportRange } from "./group-reports";

export type { GroupCategoryReport };

/**
 * The cashflow of `range` per category of every company the user may see, in `reportingCurrency` (already
 * resolved: see `resolveReportingCurrency`). A company whose read fails is named in `failedCompanies`; a failing
 * rules or rate read rejects (500 through the route's error mapping).
 */
export async function getGroupCategories(
  ctx: BffContext,
  range: GroupReportRange,
  reportingCurrency: string,
): Promise<GroupCategoryReport> {
  const [db, rules] = await Promise.all([dashboardDb(), categoryRules()]);
  return groupCashflowByCategory({
    companies: ctx.companies,
    reportingCurrency,
    from: range.from_date,
    to: range.to_date,
    rules,
    read: async (c) => {
      const { txs, truncated } = await readTransactionRange(
        { companyId: c.id, requestId: ctx.requestId },
        range.from_date,
        range.to_date,
      );
      return { transactions: txs, truncated };
    },
    loadRates: (q) => loadFxRates(db, q),
    concurrency: GROUP_REPORT_CONCURRENCY,
  });
}

/**
 * The CSV columns: company, category, booking date, currency, number of transactions, the original inflow, outflow
 * and net, the reporting currency, the rate (1 unit of `currency` in the reporting currency), its date, whether it
 * is an earlier day's rate, the converted figures (empty when unconverted, with `unconverted_reason`) and the
 * export time (ISO 8601 with offset).
 */
export function groupCategoryColumns(reportingCurrency: string, exportedAt: string): CsvColumn<GroupCategoryLine>[] {
  const figures = ["inflow", "outflow", "net"] as const;
  return [
    { header: "company_id", value: (l) => l.companyId },
    { header: "company", value: (l) => l.companyName },
    { header: "category", value: (l) => l.category },
    { header: "date", value: (l) => l.date },
    { header: "currency", value: (l) => l.currency },
    { header: "count", value: (l) => String(l.count) },
    ...figures.map((f) => ({ header: f, value: (l: GroupCategoryLine) => l.original[f] })),
    { header: "reporting_currency", value: () => reportingCurrency },
    { header: "rate", value: (l) => l.rate },
    { header: "rate_date", value: (l) => l.rateDate },
    { header: "rate_stale", value: (l) => (l.converted ? String(l.staleRate) : "") },
    ...figures.map((f) => ({ header: `${f}_converted`, value: (l: GroupCategoryLine) => l.converted?.[f] })),
    { header: "unconverted_reason", value: (l) => l.unconvertedReason },
    { header: "exported_at", value: () => exportedAt },
  ];
}

/**
 * The group cashflow by category as a CSV download. A company whose read failed has no lines; its name is in the
 * `X-Failed-Companies` header (comma-separated, URL-encoded names), and companies whose range was cut in
 * `X-Truncated-Companies`, so the download is never silently partial.
 */
export async function exportGroupCategories(
  ctx: BffContext,
  range: GroupReportRange,
  reportingCurrency: string,
): Promise<Response> {
  const report = await getGroupCategories(ctx, range, reportingCurrency);
  const text = toCsv(report.lines, groupCategoryColumns(reportingCurrency, formatISO(new Date())), true);
  const headers: Record<string, string> = csvHeaders(
    `group_cashflow_categories_${range.from_date}_${range.to_date}_${reportingCurrency}.csv`,
    report.lines.length,
  );
  const names = (list: { name: string }[]) => list.map((c) => encodeURIComponent(c.name)).join(",");
  if (report.failedCompanies.length > 0) headers["X-Failed-Companies"] = names(report.failedCompanies);
  if (report.truncatedCompanies.length > 0) headers["X-Truncated-Companies"] = names(report.truncatedCompanies);
  return new Response(text, { status: 200, headers });
}
