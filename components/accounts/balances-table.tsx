"use client";

import type { BalanceSnapshot } from "@treasury/contract";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import { Table, Td, Th } from "@/components/ui/table";

const TYPES = ["closing_booked", "closing_available", "interim_booked", "interim_available"] as const;
const LABEL: Record<(typeof TYPES)[number], string> = {
  closing_booked: "Closing booked",
  closing_available: "Closing available",
  interim_booked: "Interim booked",
  interim_available: "Interim available",
};

/** Balances by date and balance type: one row per date, one column per ISO 20022 balance type. */
export function BalancesTable({ balances }: { balances: BalanceSnapshot[] }) {
  const byDate = new Map<string, Partial<Record<string, BalanceSnapshot>>>();
  for (const b of balances) byDate.set(b.as_of_date, { ...byDate.get(b.as_of_date), [b.balance_type]: b });
  const dates = [...byDate.keys()].sort().reverse();
  if (dates.length === 0)
    return <p className="text-[13px] text-slate-600">No balances reported in the last 30 days.</p>;
  return (
    <div className="max-h-96 overflow-y-auto" tabIndex={0} role="group" aria-label="Balances by type, scrollable">
      <Table label="Balances by type">
        <thead className="sticky top-0">
          <tr>
            <Th>Date</Th>
            {TYPES.map((t) => (
              <Th key={t} align="right">
                {LABEL[t]}
              </Th>
            ))}
          </tr>
        </thead>
        <tbody>
          {dates.map((d) => (
            <tr key={d}>
              <Td>
                <BusinessDate date={d} />
              </Td>
              {TYPES.map((t) => {
                const b = byDate.get(d)?.[t];
                return (
                  // On a phone's card a balance type the day lacks is left out (docs/architecture.md#phones).
                  <Td key={t} align="right" data-stack-hide={b ? undefined : ""}>
                    {b ? <Amount value={b.balance} currency={b.currency} /> : <span className="text-slate-300">—</span>}
                  </Td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
