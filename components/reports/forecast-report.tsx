"use client";

import { useMemo } from "react";
import type { ForecastEntry, PositionDay } from "@/lib/contract";
import { groupByCurrency } from "@/components/charts/series";
import { ForecastChart } from "@/components/charts/lazy";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import { EmptyState } from "@/components/ui/states";
import { Td, Th } from "@/components/ui/table";
import { CurrencyReportSection } from "./currency-section";

/**
 * Forecast report: per currency the actual positions continued by the forecast (marked as such), and the forecast
 * table.
 */
export function ForecastReport({ positions, forecast }: { positions: PositionDay[]; forecast: ForecastEntry[] }) {
  const groups = useMemo(() => groupByCurrency(forecast), [forecast]);
  const actual = useMemo(() => new Map(groupByCurrency(positions)), [positions]);
  if (forecast.length === 0)
    return (
      <EmptyState title="No forecast available">
        The forecast needs at least one closing position and some booking history.
      </EmptyState>
    );
  return (
    <div className="space-y-8">
      {groups.map(([currency, list]) => (
        <CurrencyReportSection
          key={currency}
          currency={currency}
          title="Forecast"
          tableLabel="Forecast position"
          chart={<ForecastChart positions={actual.get(currency) ?? []} forecast={list} currency={currency} />}
        >
          <thead className="sticky top-0">
            <tr>
              <Th>Date</Th>
              <Th align="right">Expected position (forecast)</Th>
            </tr>
          </thead>
          <tbody>
            {list.map((r) => (
              <tr key={r.date}>
                <Td>
                  <BusinessDate date={r.date} />
                </Td>
                <Td align="right" className="italic text-violet-900">
                  <Amount value={r.amount} currency={currency} />
                </Td>
              </tr>
            ))}
          </tbody>
        </CurrencyReportSection>
      ))}
    </div>
  );
}
