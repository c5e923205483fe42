"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import type { ResolvedRange } from "@/lib/url-state/date-range";
import { CsvExportButton } from "@/components/export/csv-export-button";
import { DateRangePicker } from "@/components/list-controls/date-range-picker";

const TABS = [
  { href: "/reports/cashflow", label: "Cashflow" },
  { href: "/reports/positions", label: "Positions" },
  { href: "/reports/forecast", label: "Forecast" },
];

/**
 * Tabs between the three reports (keeping the range and the scope), the range picker, the CSV export of the shown
 * range and, for a user with more than one company (`scope` given), the switch between the selected company and the
 * whole group.
 */
export function ReportShell({
  range,
  exportHref,
  exportName,
  children,
  showRange = true,
  scope,
  companyName,
}: {
  range: ResolvedRange;
  exportHref: string;
  exportName: string;
  children: ReactNode;
  showRange?: boolean;
  /** The scope shown; omitted when the user has only one company (no switch). */
  scope?: "company" | "group";
  /** The selected company's name, for the switch's label. */
  companyName?: string;
}) {
  const path = usePathname();
  const rangeQs =
    range.preset === "custom" ? `?range=custom&from=${range.from_date}&to=${range.to_date}` : `?range=${range.preset}`;
  const qs = scope === "group" ? `${rangeQs}&scope=group` : rangeQs;
  const scopeLink = (s: "company" | "group", label: string) => (
    <Link
      href={`${path}${s === "group" ? `${rangeQs}&scope=group` : rangeQs}`}
      aria-current={scope === s ? "page" : undefined}
      data-testid={`report-scope-${s}`}
      className={
        "rounded px-2.5 py-1 text-[13px] font-medium " +
        (scope === s ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900")
      }
    >
      {label}
    </Link>
  );
  return (
    <div>
      {scope && (
        <nav aria-label="Report scope" className="mb-3 inline-flex gap-1 rounded-md bg-slate-100 p-1">
          {scopeLink("company", companyName ?? "Company")}
          {scopeLink("group", "Group, all companies")}
        </nav>
      )}
      <nav className="mb-4 flex gap-1 border-b border-slate-200" aria-label="Reports">
        {TABS.map((t) => (
          <Link
            key={t.href}
            href={`${t.href}${qs}`}
            aria-current={path === t.href ? "page" : undefined}
            className={`-mb-px border-b-2 px-3 py-2 text-[13px] font-medium ${
              path === t.href
                ? "border-sky-600 " + "text-slate-900"
                : "border-transparent text-slate-600 hover:text-slate-900"
            }`}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        {showRange ? <DateRangePicker resolved={range} /> : <span />}
        <CsvExportButton href={exportHref} fileName={exportName} />
      </div>
      {children}
    </div>
  );
}
