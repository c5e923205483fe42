/**
 * Group reports of the signed-in user (lib/group/group-reports.ts) read
 * through the process's treasury client: only the user's visible companies
 * (`ctx.companies`), each with its own `X-Company-ID`, at most
 * {@link GROUP_REPORT_CONCURRENCY} companies at once, as background reads.
 * The upstream cache keeps each company's report rows for a few seconds and
 * drops them on that company's writes, so a currency switch, a reload or the
 * CSV export right after the page makes no upstream call.
 * Rates come from the dashboard database. Also the CSV of a group report:
 * one line per upstream row with its original figures, the rate used, the
 * rate's date and the converted figures.
 */
import "server-only";
import { formatISO } from "date-fns";
import type { Company } from "@treasury/contract";
import { csvHeaders, toCsv, type CsvColumn } from "../../csv/csv-stream";
import { todayUtc } from "../../dates";
import { loadFxRates } from "../../fx/convert";
import {
  groupReport,
  REPORT_METRICS,
  type GroupReport,
  type GroupReportKind,
  type GroupReportLine,
  type GroupReportRows,
} from "../../group/group-reports";
import { reportingCurrencyFor, supportedReportingCurrencies } from "../../group/reporting-currency";
import { collectAll } from "../../treasury-client";
import { dashboardDb } from "../../server/db";
import { treasury } from "../../server/treasury";
import { background, type BffContext } from "../context";
import { BffError } from "../errors";

export type { GroupReport, GroupReportKind };

/** Companies read at once at most for one group report (each read is one paged list call). */
export const GROUP_REPORT_CONCURRENCY = 4;

type AnyRow = GroupReportRows[GroupReportKind];
/** The range of a group report: `from_date`..`to_date` (forecast: ignored, the whole forecast is read). */
export interface GroupReportRange {
  from_date: string;
  to_date: string;
}

function reader(ctx: BffContext, kind: GroupReportKind, range: GroupReportRange) {
  return (c: Company): Promise<AnyRow[]> => {
    // A cross-company fan-out: background reads (they yield to page loads), kept by the upstream cache.
    const call = background({ companyId: c.id, requestId: ctx.requestId });
    const q = { pageSize: 1000, from_date: range.from_date, to_date: range.to_date };
    if (kind === "cashflow") return collectAll(treasury().cashflowDaily(call, q), { maxPages: 50 });
    if (kind === "positions") return collectAll(treasury().positionsDaily(call, q), { maxPages: 50 });
    return collectAll(treasury().forecast(call, { pageSize: 1000 }), { maxPages: 50 });
  };
}

/**
 * The user's reporting currency, or `requested` when given and supported.
 * @throws BffError validation_error (400) naming `currency` for an unsupported code.
 */
export async function resolveReportingCurrency(userId: string, requested: string | undefined): Promise<string> {
  if (requested === undefined) return (await reportingCurrencyFor(userId)).currency;
  const supported = await supportedReportingCurrencies();
  if (!supported.includes(requested)) {
    const message = `must be one of ${supported.join(", ")}`;
    throw new BffError("validation_error", `currency ${message}`, { errors: { currency: [message] } });
  }
  return requested;
}

/**
 * The `kind` report of every company the user may see, in `reportingCurrency`.
 * A company whose read fails is named in `failedCompanies`; a failing rate
 * read rejects (500 through the route's error mapping).
 */
export async function getGroupReport(
  ctx: BffContext,
  kind: GroupReportKind,
  range: GroupReportRange,
  reportingCurrency: string,
): Promise<GroupReport> {
  const db = await dashboardDb();
  return groupReport({
    kind,
    companies: ctx.companies,
    reportingCurrency,
    today: todayUtc(),
    read: reader(ctx, kind, range),
    loadRates: (q) => loadFxRates(db, q),
    concurrency: GROUP_REPORT_CONCURRENCY,
  });
}

/**
 * The CSV columns of a group report: company, date, currency, the original
 * figures, the reporting currency, the rate (1 unit of `currency` in the
 * reporting currency), its date, whether it is an earlier day's rate, the
 * converted figures (empty when unconverted, with `unconverted_reason`) and
 * the export time (ISO 8601 with offset).
 */
export function groupReportColumns(
  kind: GroupReportKind,
  reportingCurrency: string,
  exportedAt: string,
): CsvColumn<GroupReportLine>[] {
  const metrics = REPORT_METRICS[kind];
  return [
    { header: "company_id", value: (l) => l.companyId },
    { header: "company", value: (l) => l.companyName, text: true },
    { header: "date", value: (l) => l.date },
    { header: "currency", value: (l) => l.currency },
    ...metrics.map((m) => ({ header: m, value: (l: GroupReportLine) => l.original[m] })),
    { header: "reporting_currency", value: () => reportingCurrency },
    { header: "rate", value: (l) => l.rate },
    { header: "rate_date", value: (l) => l.rateDate },
    { header: "rate_stale", value: (l) => (l.converted ? String(l.staleRate) : "") },
    ...metrics.map((m) => ({ header: `${m}_converted`, value: (l: GroupReportLine) => l.converted?.[m] })),
    { header: "unconverted_reason", value: (l) => l.unconvertedReason },
    { header: "exported_at", value: () => exportedAt },
  ];
}

/**
 * The group report as a CSV download. A company whose read failed has no
 * rows; its name is in the `X-Failed-Companies` header (comma-separated,
 * URL-encoded names) so the download is never silently partial.
 */
export async function exportGroupReport(
  ctx: BffContext,
  kind: GroupReportKind,
  range: GroupReportRange,
  reportingCurrency: string,
): Promise<Response> {
  const report = await getGroupReport(ctx, kind, range, reportingCurrency);
  const text = toCsv(report.lines, groupReportColumns(kind, reportingCurrency, formatISO(new Date())), true);
  const name =
    kind === "forecast"
      ? `group_forecast_${reportingCurrency}.csv`
      : `group_${kind}_${range.from_date}_${range.to_date}_${reportingCurrency}.csv`;
  const headers: Record<string, string> = csvHeaders(name, report.lines.length);
  if (report.failedCompanies.length > 0)
    headers["X-Failed-Companies"] = report.failedCompanies.map((c) => encodeURIComponent(c.name)).join(",");
  return new Response(text, { status: 200, headers });
}
