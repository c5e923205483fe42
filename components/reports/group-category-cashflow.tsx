"use client";

import type { GroupCategoryCompany, GroupCategoryReport } from "@/lib/group/group-categories";
import { formatBusinessDate } from "@/lib/format-date";
import { signedAmount } from "@/lib/money";
import { useLocale } from "@/components/format/use-locale";
import { Amount } from "@/components/format/amount";
import { Table, Td, Th } from "@/components/ui/table";
import { UnconvertedNote } from "./unconverted-note";

/** The first cell of a row (a category, a company within it, the total): a row header. */
const rowHead = "border-b border-slate-100 px-3 py-1.5 text-left text-[13px]";

function Figures({
  f,
  currency,
  className,
}: {
  f: GroupCategoryCompany["figures"];
  currency: string;
  className?: string;
}) {
  return (
    <>
      <Td align="right" className={className} data-testid="group-category-inflow">
        <Amount value={f.inflow} currency={currency} />
      </Td>
      <Td align="right" className={className} data-testid="group-category-outflow">
        <Amount value={signedAmount(f.outflow, "debit")} currency={currency} />
      </Td>
      <Td align="right" className={className} data-testid="group-category-net">
        <Amount value={f.net} currency={currency} signed />
      </Td>
    </>
  );
}

/**
 * The group cashflow of the range per category in the reporting currency: one row per category (all companies),
 * under it one row per company with transactions in it, and the group total; the companies that could not be read
 * or whose range was cut are named above it. Converted figures show the oldest rate date used on hover; the CSV
 * (`exportHref`) carries every line's original and converted figures with its rate and rate date. Expects
 * `report.lines` may be empty (the page strips them).
 */
export function GroupCategoryCashflow({ report, exportHref }: { report: GroupCategoryReport; exportHref: string }) {
  const locale = useLocale();
  const currency = report.reportingCurrency;
  const title = report.oldestRateDate
    ? `Converted at each booking day's reference rate, ${formatBusinessDate(report.oldestRateDate, locale)} or later`
    : "No conversion needed";
  return (
    <section aria-labelledby="group-by-category" className="space-y-2" data-testid="group-categories">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="group-by-category" className="text-sm font-semibold text-slate-900">
          By category, all companies · in {currency}
        </h2>
        <a href={exportHref} download className="text-[13px] font-medium text-blue-700 underline">
          Export categories CSV
        </a>
      </div>
      {report.failedCompanies.length > 0 && (
        <p
          role="status"
          data-testid="group-categories-failed"
          className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-[13px] text-amber-900"
        >
          Not included, their transactions could not be read: {report.failedCompanies.map((f) => f.name).join(", ")}.
        </p>
      )}
      {report.truncatedCompanies.length > 0 && (
        <p className="text-xs text-amber-800" data-testid="group-categories-truncated">
          {report.truncatedCompanies.map((c) => c.name).join(", ")}: the range holds more transactions than one report
          reads; narrow the range for exact figures.
        </p>
      )}
      <UnconvertedNote
        unconverted={report.unconverted}
        unit="line"
        className="text-[13px] text-amber-800"
        testId="group-categories-unconverted"
      />
      {report.categories.length === 0 ? (
        <p className="text-[13px] text-slate-600">No transactions in this range.</p>
      ) : (
        <Table label={`Group cashflow by category in ${currency}`}>
          <thead>
            <tr>
              <Th>Category / company</Th>
              <Th align="right">Transactions</Th>
              <Th align="right">Inflow</Th>
              <Th align="right">Outflow</Th>
              <Th align="right">Net</Th>
            </tr>
          </thead>
          <tbody title={title}>
            {report.categories.flatMap((c) => [
              <tr key={c.category} data-testid="group-category" data-category={c.category}>
                <th scope="row" className={`${rowHead} bg-slate-50 font-semibold text-slate-900`}>
                  {c.category}
                  <span className="ml-2 text-xs font-normal text-slate-600">
                    {c.byCompany.length} {c.byCompany.length === 1 ? "company" : "companies"}
                  </span>
                </th>
                <Td align="right" className="bg-slate-50">
                  {c.count.toLocaleString(locale)}
                  {c.unconverted > 0 && <div className="text-xs text-amber-800">{c.unconverted} not converted</div>}
                </Td>
                <Figures f={c.figures} currency={currency} className="bg-slate-50 font-semibold" />
              </tr>,
              ...c.byCompany.map((co) => (
                <tr
                  key={`${c.category}-${co.id}`}
                  data-testid="group-category-company"
                  data-category={c.category}
                  data-key={co.id}
                >
                  <th scope="row" className={`${rowHead} pl-7 font-normal text-slate-800`}>
                    {co.name}
                    <span className="sr-only"> in {c.category}</span>
                  </th>
                  <Td align="right">{co.count.toLocaleString(locale)}</Td>
                  <Figures f={co.figures} currency={currency} />
                </tr>
              )),
            ])}
          </tbody>
          <tfoot>
            <tr data-testid="group-category-total">
              <th scope="row" className={`${rowHead} font-semibold text-slate-900`}>
                Total
                <span className="ml-2 text-xs font-normal text-slate-600">
                  {report.companies.length} {report.companies.length === 1 ? "company" : "companies"}
                </span>
              </th>
              <Td align="right">{report.companies.reduce((s, c) => s + c.count, 0).toLocaleString(locale)}</Td>
              <Figures f={report.total} currency={currency} className="font-semibold" />
            </tr>
          </tfoot>
        </Table>
      )}
      <p className="text-xs text-slate-600">{title}.</p>
    </section>
  );
}
