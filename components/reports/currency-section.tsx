"use client";

import { Fragment, useMemo, type ReactNode } from "react";
import { groupByCurrency } from "@/components/charts/series";
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

/**
 * A per-currency report (cashflow, positions): `empty` when there are no `rows`, else one `section(currency, list)`
 * per currency of the rows (`groupByCurrency`'s order, each with its rows in their order), in a spaced column.
 */
export function CurrencyReports<T extends { currency: string }>({
  rows,
  empty,
  section,
}: {
  rows: readonly T[];
  empty: ReactNode;
  section: (currency: string, list: T[]) => ReactNode;
}) {
  const groups = useMemo(() => groupByCurrency(rows), [rows]);
  if (rows.length === 0) return <>{empty}</>;
  return (
    <div className="space-y-8">
      {groups.map(([currency, list]) => (
        <Fragment key={currency}>{section(currency, list)}</Fragment>
      ))}
    </div>
  );
}
