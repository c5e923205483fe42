"use client";

import { useMemo } from "react";
import type { ForecastEntry, PositionDay } from "@treasury/contract";
import type { ForecastHorizon } from "@/lib/url-state/forecast-horizon";
import { groupByCurrency } from "@/components/charts/series";
import { ForecastChart } from "@/components/charts/lazy";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import { EmptyState } from "@/components/ui/states";
import { Td, Th } from "@/components/ui/table";
import { CurrencyReportSection } from "./currency-section";
import { ForecastHorizonPicker } from "./forecast-horizon-picker";

/** The breakdown's amounts in the table's column order, each with its cell's test id. */
const BREAKDOWN_CELLS = [
  ["opening", "forecast-opening"],
  ["expected_flows", "forecast-flows"],
  ["outgoing_today", "forecast-outgoing-today"],
  ["outgoing_batches", "forecast-outgoing"],
] as const satisfies readonly (readonly [keyof NonNullable<ForecastEntry["breakdown"]>, string])[];

/**
 * Forecast report: the horizon picker (7 / 30 / 90 days), then per currency the actual positions continued by the
 * forecast (marked as such), and the forecast table. When the API gives a breakdown (an extension), the table shows
 * what drives each day: the opening position, the expected flows (weekday averages, cumulative) and the outgoing
 * batches (due that day, and cumulative); against an API without it only the expected position is shown.
 */
export function ForecastReport({
  positions,
  forecast,
  horizon,
}: {
  positions: PositionDay[];
  forecast: ForecastEntry[];
  /** The chosen horizon; without it (the group report) no picker is shown. */
  horizon?: ForecastHorizon;
}) {
  const groups = useMemo(() => groupByCurrency(forecast), [forecast]);
  const actual = useMemo(() => new Map(groupByCurrency(positions)), [positions]);
  const picker = horizon && (
    <div className="flex flex-wrap items-center gap-2 text-[13px] text-slate-600">
      <span>Forecast for the next</span>
      <ForecastHorizonPicker value={horizon} />
    </div>
  );
  if (forecast.length === 0)
    return (
      <div className="space-y-4">
        {picker}
        <EmptyState title="No forecast available">
          The forecast needs at least one closing position and some booking history.
        </EmptyState>
      </div>
    );
  return (
    <div className="space-y-8">
      {picker}
      {groups.map(([currency, list]) => {
        const broken = list.some((r) => r.breakdown);
        const opening = list.find((r) => r.breakdown)?.breakdown;
        return (
          <CurrencyReportSection
            key={currency}
            currency={currency}
            title="Forecast"
            tableLabel="Forecast position"
            chart={
              <>
                <ForecastChart positions={actual.get(currency) ?? []} forecast={list} currency={currency} />
                {opening && (
                  <p className="mt-2 text-xs text-slate-600" data-testid="forecast-explanation">
                    Expected position = opening position (closing balance of{" "}
                    <BusinessDate date={opening.opening_date} />) + expected flows (average net flow of the same weekday
                    over the last 90 days, summed) − outgoing batches not yet paid, by execution date.
                  </p>
                )}
              </>
            }
          >
            <thead className="sticky top-0">
              <tr>
                <Th>Date</Th>
                {broken && (
                  <>
                    <Th align="right">Opening position</Th>
                    <Th align="right">Expected flows (to date)</Th>
                    <Th align="right">Outgoing batches (that day)</Th>
                    <Th align="right">Outgoing batches (to date)</Th>
                  </>
                )}
                <Th align="right">Expected position (forecast)</Th>
              </tr>
            </thead>
            <tbody>
              {list.map((r) => (
                <tr key={r.date} data-testid="forecast-row">
                  <Td>
                    <BusinessDate date={r.date} />
                  </Td>
                  {broken && (
                    <>
                      {BREAKDOWN_CELLS.map(([part, testId]) => (
                        <Td key={part} align="right" data-testid={testId}>
                          {r.breakdown ? <Amount value={r.breakdown[part]} currency={currency} /> : "—"}
                        </Td>
                      ))}
                    </>
                  )}
                  <Td align="right" className="italic text-violet-900">
                    <Amount value={r.amount} currency={currency} />
                  </Td>
                </tr>
              ))}
            </tbody>
          </CurrencyReportSection>
        );
      })}
    </div>
  );
}
