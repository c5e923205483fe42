"use client";

import type { Company, KoncernBreakdown } from "@treasury/contract";
import { Amount } from "@/components/format/amount";
import { EmptyState } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";

/**
 * Koncern breakdown: one row per company, one column per
 * currency, and the API's per-currency totals (recomputed exactly by the
 * BFF when the user sees only some companies). Currencies are never added
 * together (docs/treasury-api.md#conventions).
 */
export function KoncernBreakdownTable({ data, companies }: { data: KoncernBreakdown; companies: Company[] }) {
  const currencies = [
    ...new Set([
      ...data.totals.map((t) => t.currency),
      ...data.companies.flatMap((c) => c.balances.map((b) => b.currency)),
    ]),
  ].sort();
  const meta = new Map(companies.map((c) => [c.id, c]));
  if (data.companies.length === 0)
    return (
      <EmptyState title="No companies in this corporate group">None of its companies is visible to you.</EmptyState>
    );
  return (
    <Table label="Corporate group (koncern) breakdown by company and currency">
      <thead>
        <tr>
          <Th>Company</Th>
          <Th>Org. number</Th>
          {currencies.map((c) => (
            <Th key={c} align="right">
              {c}
            </Th>
          ))}
        </tr>
      </thead>
      <tbody>
        {data.companies.map((c) => (
          <tr key={c.company_id} data-testid="breakdown-row">
            <Td className="font-medium">{c.name}</Td>
            <Td mono>{meta.get(c.company_id)?.orgnr ?? ""}</Td>
            {currencies.map((cur) => {
              const b = c.balances.find((x) => x.currency === cur);
              return (
                <Td key={cur} align="right">
                  {b ? <Amount value={b.balance} currency={cur} /> : <span className="text-slate-300">—</span>}
                </Td>
              );
            })}
          </tr>
        ))}
      </tbody>
      <tfoot className="bg-slate-50 font-semibold">
        <tr>
          <Td>Total</Td>
          <Td />
          {currencies.map((cur) => {
            const t = data.totals.find((x) => x.currency === cur);
            return (
              <Td key={cur} align="right">
                <span data-testid={`breakdown-total-${cur}`}>
                  {t ? <Amount value={t.balance} currency={cur} /> : "—"}
                </span>
              </Td>
            );
          })}
        </tr>
      </tfoot>
    </Table>
  );
}
