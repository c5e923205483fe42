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

/** Tabs between the three reports (keeping the range), the range picker and the CSV export of the shown range. */
export function ReportShell({
  range,
  exportHref,
  exportName,
  children,
  showRange = true,
}: {
  range: ResolvedRange;
  exportHref: string;
  exportName: string;
  children: ReactNode;
  showRange?: boolean;
}) {
  const path = usePathname();
  const qs =
    range.preset === "custom" ? `?range=custom&from=${range.from_date}&to=${range.to_date}` : `?range=${range.preset}`;
  return (
    <div>
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
