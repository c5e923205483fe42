"use client";

import { useMemo } from "react";
import type { GroupReport, GroupReportCompany } from "@/lib/group/group-reports";
import { formatBusinessDate } from "@/lib/format-date";
import { signedAmount } from "@/lib/money";
import { useLocale } from "@/components/format/use-locale";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import { Table, Td, Th } from "@/components/ui/table";
import { CashflowReport } from "./cashflow-report";
import { ForecastReport } from "./forecast-report";
import { PositionsReport } from "./positions-report";
import { FailedCompaniesNote } from "@/components/group/failed-companies-note";
import { UnconvertedNote } from "./unconverted-note";

const LABELS: Record<string, string> = {
  inflow: "Inflow",
  outflow: "Outflow",
  net: "Net",
  balance: "Position",
  amount: "Expected position",
};

/** The hover text of a converted figure: the oldest rate date used. */
function rateTitle(report: GroupReport, locale: string): string {
  return report.oldestRateDate
    ? `Converted with reference rates of ${formatBusinessDate(report.oldestRateDate, locale)} or later` +
        (report.kind === "forecast" ? " (future days use today's rate)" : "")
    : "No conversion needed";
}

function Figure({ report, metric, value }: { report: GroupReport; metric: string; value: string | undefined }) {
  const v = value ?? "0";
  return (
    <Amount
      value={metric === "outflow" ? signedAmount(v, "debit") : v}
      currency={report.reportingCurrency}
      signed={metric === "net"}
    />
  );
}

/**
 * A group report: the group's figure for the range in the reporting
 * currency, the per-company breakdown (companies that failed named above
 * it), then the daily report of the group in that currency (the same chart
 * and table as a company's report). Expects `report.lines` may be empty (the
 * page strips them; the CSV carries them).
 */
export function GroupReportView({ report }: { report: GroupReport }) {
  const locale = useLocale();
  const currency = report.reportingCurrency;
  const title = rateTitle(report, locale);
  const rows = useMemo(
    () =>
      report.days.map((d): { date: string; figures: Record<string, string> } => ({ date: d.date, figures: d.total })),
    [report],
  );
  const end = report.endDate ? formatBusinessDate(report.endDate, locale) : null;
  const what =
    report.kind === "cashflow"
      ? "Group cashflow of the range"
      : report.kind === "positions"
        ? `Group position${end ? ` on ${end}` : ""}`
        : `Group forecast${end ? ` for ${end}` : ""}`;
  const companyRow = (c: GroupReportCompany) => (
    <tr key={c.id} data-testid="group-report-company" data-key={c.id}>
      <Td>{c.name}</Td>
      {report.metrics.map((m) => (
        <Td key={m} align="right" title={title} data-testid={`group-report-${m}`}>
          <Figure report={report} metric={m} value={c.figures[m]} />
        </Td>
      ))}
      <Td align="right" className="text-slate-600">
        {c.unconverted > 0 ? `${c.unconverted} of ${c.lines} not converted` : c.lines}
      </Td>
    </tr>
  );
  return (
    <div className="space-y-6">
      <FailedCompaniesNote companies={report.failedCompanies} testId="group-report-failed" />
      <section aria-labelledby="group-report-h" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="group-report-h" className="text-xs font-medium uppercase tracking-wide text-slate-500">
          {what} · {report.companies.length} {report.companies.length === 1 ? "company" : "companies"} · in {currency}
        </h2>
        <dl className="mt-2 flex flex-wrap gap-x-8 gap-y-2" data-testid="group-report-total" title={title}>
          {report.metrics.map((m) => (
            <div key={m}>
              <dt className="text-xs text-slate-600">{LABELS[m] ?? m}</dt>
              <dd className="text-lg font-semibold sm:text-xl" data-testid={`group-report-total-${m}`}>
                <Figure report={report} metric={m} value={report.total[m]} />
              </dd>
            </div>
          ))}
        </dl>
        {report.failedCompanies.length > 0 && (
          <p className="mt-2 text-xs font-medium text-amber-900" data-testid="group-report-total-excludes">
            Excludes {report.failedCompanies.map((f) => f.name).join(", ")} (could not be read)
          </p>
        )}
        <p className="mt-2 text-xs text-slate-600" data-testid="group-report-rates">
          {title}
          {report.staleRateLines > 0 &&
            ` · ${report.staleRateLines} ${report.staleRateLines === 1 ? "row" : "rows"} with an earlier day's rate`}
        </p>
        <UnconvertedNote
          unconverted={report.unconverted}
          unit="row"
          className="mt-1 text-[13px] text-amber-800"
          testId="group-report-unconverted"
        />
      </section>
      <section aria-labelledby="group-report-companies-h" className="space-y-2">
        <h2 id="group-report-companies-h" className="text-sm font-semibold text-slate-900">
          By company
        </h2>
        <Table label={`${what} by company in ${currency}`}>
          <thead>
            <tr>
              <Th>Company</Th>
              {report.metrics.map((m) => (
                <Th key={m} align="right">
                  {LABELS[m] ?? m}
                </Th>
              ))}
              <Th align="right">Rows</Th>
            </tr>
          </thead>
          <tbody>{report.companies.map(companyRow)}</tbody>
        </Table>
      </section>
      <section aria-labelledby="group-report-days-h" className="space-y-2">
        <h2 id="group-report-days-h" className="text-sm font-semibold text-slate-900">
          By day, whole group
          {report.endDate && report.kind !== "cashflow" && (
            <span className="ml-2 text-xs font-normal text-slate-600">
              last day <BusinessDate date={report.endDate} />
            </span>
          )}
        </h2>
        {report.kind === "cashflow" && (
          <CashflowReport
            rows={report.days.map((d) => ({
              date: d.date,
              currency,
              inflow: d.total.inflow ?? "0",
              outflow: d.total.outflow ?? "0",
              net: d.total.net ?? "0",
            }))}
          />
        )}
        {report.kind === "positions" && (
          <PositionsReport rows={rows.map((r) => ({ date: r.date, currency, balance: r.figures.balance ?? "0" }))} />
        )}
        {report.kind === "forecast" && (
          <ForecastReport
            positions={[]}
            forecast={rows.map((r) => ({ date: r.date, currency, amount: r.figures.amount ?? "0" }))}
          />
        )}
      </section>
    </div>
  );
}
