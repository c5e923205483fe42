"use client";

import { useMemo } from "react";
import type { CashflowDay } from "@treasury/contract";
import { signedAmount } from "@/lib/money";
import { cashflowTotals } from "@/lib/totals";
import { CashflowChart } from "@/components/charts/lazy";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import { EmptyState } from "@/components/ui/states";
import { Td, Th } from "@/components/ui/table";
import { CurrencyReportSection, CurrencyReports } from "./currency-section";

/**
 * Cashflow report: per currency a chart of inflow / outflow bars with the net line, the daily table and exact totals.
 */
export function CashflowReport({ rows }: { rows: CashflowDay[] }) {
  const totals = useMemo(() => new Map(cashflowTotals(rows).map((t) => [t.currency, t])), [rows]);
  return (
    <CurrencyReports
      rows={rows}
      empty={
        <EmptyState title="No cashflow in this range">
          Nothing was booked between these dates. Pick a wider range.
        </EmptyState>
      }
      section={(currency, list) => {
        const t = totals.get(currency);
        return (
          <CurrencyReportSection
            key={currency}
            currency={currency}
            title="Cashflow"
            tableLabel="Daily cashflow"
            chart={<CashflowChart rows={list} currency={currency} />}
          >
            <thead className="sticky top-0">
              <tr>
                <Th>Date</Th>
                <Th align="right">Inflow</Th>
                <Th align="right">Outflow</Th>
                <Th align="right">Net</Th>
              </tr>
            </thead>
            <tbody>
              {[...list].reverse().map((r) => (
                <tr key={r.date}>
                  <Td>
                    <BusinessDate date={r.date} />
                  </Td>
                  <Td align="right">
                    <Amount value={r.inflow} currency={currency} />
                  </Td>
                  <Td align="right">
                    <Amount value={signedAmount(r.outflow, "debit")} currency={currency} />
                  </Td>
                  <Td align="right">
                    <Amount value={r.net} currency={currency} signed />
                  </Td>
                </tr>
              ))}
            </tbody>
            {t && (
              <tfoot className="sticky bottom-0 bg-slate-50 font-semibold">
                <tr data-testid={`total-${currency}`}>
                  <Td>Total, {list.length} days</Td>
                  <Td align="right">
                    <Amount value={t.inflow} currency={currency} />
                  </Td>
                  <Td align="right">
                    <Amount value={signedAmount(t.outflow, "debit")} currency={currency} />
                  </Td>
                  <Td align="right">
                    <span data-testid={`total-net-${currency}`}>
                      <Amount value={t.net} currency={currency} signed />
                    </span>
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
