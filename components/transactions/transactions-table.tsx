"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ArrowLeftRight } from "lucide-react";
import { parseAsInteger, useQueryState } from "nuqs";
import { transactionQueries } from "@/components/data/queries";
import { BffRequestError } from "@/components/data/bff-fetch";
import { EmptyState, ProblemState, SkeletonRows } from "@/components/ui/states";
import { AmountCell, Table, Td, Th } from "@/components/ui/table";
import { formatMoney, isNegative, signedAmount } from "@/lib/money";
import { formatDate } from "@/lib/dates";

/** Transactions of the selected company, newest first, paged through the URL (`?page=`). */
export function TransactionsTable({ companyId }: { companyId: string }) {
  const [page, setPage] = useQueryState("page", parseAsInteger.withDefault(1).withOptions({ history: "push" }));
  const q = useQuery({ ...transactionQueries.list(companyId, { page }), placeholderData: keepPreviousData });
  if (q.isPending) return <SkeletonRows />;
  if (q.isError) {
    const e = q.error;
    return <ProblemState title="Transactions could not be loaded" message={e.message} requestId={e instanceof BffRequestError ? e.requestId : undefined} />;
  }
  const { items, has_next, count } = q.data;
  if (items.length === 0 && page === 1) {
    return (
      <EmptyState title="No transactions" icon={ArrowLeftRight}>
        Booked transactions of this company appear here as bank statements arrive.
      </EmptyState>
    );
  }
  return (
    <div className="space-y-3">
      <Table label="Transactions">
        <thead>
          <tr>
            <Th>Booked</Th>
            <Th>Counterparty</Th>
            <Th>Remittance</Th>
            <Th align="right">Amount</Th>
          </tr>
        </thead>
        <tbody className={q.isPlaceholderData ? "opacity-60" : undefined}>
          {items.map((t) => {
            const signed = signedAmount(t.amount, t.direction);
            return (
              <tr key={t.id} className="hover:bg-slate-50">
                <Td className="whitespace-nowrap text-slate-600">{formatDate(t.booked_date ?? t.booked_at.slice(0, 10))}</Td>
                <Td className="font-medium">{t.counterparty_name}</Td>
                <Td className="max-w-md truncate text-slate-600" title={t.remittance}>
                  {t.remittance}
                </Td>
                <AmountCell formatted={formatMoney(signed, t.currency, { signed: true })} negative={isNegative(signed)} />
              </tr>
            );
          })}
        </tbody>
      </Table>
      <div className="flex items-center justify-between text-[13px] text-slate-600">
        <span>
          Page {page}
          {count !== null ? ` · ${count.toLocaleString("en-GB")} transactions` : ""}
        </span>
        <div className="flex gap-2">
          <button type="button" disabled={page <= 1} onClick={() => void setPage(page - 1)} className="h-8 rounded-md border border-slate-300 bg-white px-3 font-medium disabled:opacity-40">
            Previous
          </button>
          <button type="button" disabled={!has_next} onClick={() => void setPage(page + 1)} className="h-8 rounded-md border border-slate-300 bg-white px-3 font-medium disabled:opacity-40">
            Next
          </button>
        </div>
      </div>
    </div>
  );
}
