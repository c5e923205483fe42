"use client";

import type { ReactNode } from "react";
import { Table } from "@/components/ui/table";

/**
 * One currency of a report (docs/treasury-api.md#conventions: aggregates per
 * currency): the chart, then the daily table in a scrollable, focusable
 * region with a sticky header. Shared by the cashflow, positions and
 * forecast reports; `children` is the table's thead / tbody / tfoot.
 */
export function CurrencyReportSection({
  currency,
  title,
  tableLabel,
  chart,
  children,
}: {
  currency: string;
  title: string;
  tableLabel: string;
  chart: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-label={`${title} in ${currency}`} className="space-y-3" data-testid={`report-${currency}`}>
      {chart}
      <div className="max-h-80 overflow-y-auto" tabIndex={0} role="region" aria-label={`Table, ${currency}`}>
        <Table label={`${tableLabel} in ${currency}`}>{children}</Table>
      </div>
    </section>
  );
}
