"use client";

import { useMemo } from "react";
import type { PositionDay } from "@treasury/contract";
import { dailyChanges, latestWithChange } from "@/lib/totals";
import { PositionChart } from "@/components/charts/lazy";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import { EmptyState } from "@/components/ui/states";
import { Td, Th } from "@/components/ui/table";
import { CurrencyReportSection, CurrencyReports } from "./currency-section";

/**
 * Positions report: per currency the daily position line, the table (each day's position and its change against the
 * reported day before), and the latest position with its change.
 */
export function PositionsReport({ rows }: { rows: PositionDay[] }) {
  const latest = useMemo(() => new Map(latestWithChange(rows).map((l) => [l.currency, l])), [rows]);
  return (
    <CurrencyReports
      rows={rows}
      empty={
        <EmptyState title="No positions in this range">
          No closing balances were reported between these dates.
        </EmptyState>
      }
      section={(currency, list) => {
        const l = latest.get(currency);
        const sorted = [...list].sort((a, b) => (a.date < b.date ? 1 : -1));
        const changes = dailyChanges(list);
        return (
          <CurrencyReportSection
            key={currency}
            currency={currency}
            title="Positions"
            tableLabel="Daily position"
            chart={<PositionChart rows={list} currency={currency} />}
          >
            <thead className="sticky top-0">
              <tr>
                <Th>Date</Th>
                <Th align="right">Day change</Th>
                <Th align="right">Position</Th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((r) => (
                <tr key={r.date}>
                  <Td>
                    <BusinessDate date={r.date} />
                  </Td>
                  <Td align="right" className="text-slate-600">
                    {/* Wrapped, so that a phone's card keeps the position as the row's figure and lists this below. */}
                    <span>
                      {changes.has(r.date) ? (
                        <Amount value={changes.get(r.date) ?? "0"} currency={currency} signed />
                      ) : (
                        "—"
                      )}
                    </span>
                  </Td>
                  <Td align="right">
                    <Amount value={r.balance} currency={currency} />
                  </Td>
                </tr>
              ))}
            </tbody>
            {l && (
              <tfoot className="sticky bottom-0 bg-slate-50 font-semibold">
                <tr data-testid={`total-${currency}`}>
                  <Td colSpan={2}>
                    Latest ({l.date}){l.change !== null ? ", change on the day before" : ""}
                  </Td>
                  <Td align="right">
                    <span data-testid={`latest-${currency}`}>
                      <Amount value={l.balance} currency={currency} />
                    </span>
                    {l.change !== null && (
                      <span className="ml-3 text-xs font-normal">
                        <Amount value={l.change} currency={currency} signed />
                      </span>
                    )}
                  </Td>
                </tr>
              </tfoot>
            )}
          </CurrencyReportSection>
        );
      }}
    />
  );
}
