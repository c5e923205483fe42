"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { Plus, Send } from "lucide-react";
import type { PaymentBatch } from "@/lib/contract";
import { BATCH_STATUSES } from "@/lib/contract/enums";
import { Amount } from "@/components/format/amount";
import { BusinessDate, Timestamp } from "@/components/format/business-date";
import { buttonClass } from "@/components/ui/button";
import { EmptyState, ProblemState, SkeletonRows } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { FilterBar, FilterDate, FilterSelect, PagerOf } from "@/components/list-controls/controls";
import { errorText, stateInWords } from "@/components/data/error-text";
import { batchFilterParsers, paymentQueries, type BatchListFilters } from "./payment-queries";
import { StatusBadge } from "./status-badge";

const STATUS_OPTIONS = BATCH_STATUSES.map((s) => ({ value: s, label: stateInWords(s) }));

/** The batches of the selected company with URL-held filters (status, creation dates, page). */
export function BatchesView({ companyId, mayCreate }: { companyId: string; mayCreate: boolean }) {
  const [f, setF] = useQueryStates(batchFilterParsers, { shallow: true, history: "replace" });
  const filters: BatchListFilters = {
    ...(f.status ? { status: f.status } : {}),
    ...(f.from ? { from_date: f.from } : {}),
    ...(f.to ? { to_date: f.to } : {}),
    ...(f.page && f.page > 1 ? { page: f.page } : {}),
  };
  const q = useQuery({ ...paymentQueries.list(companyId, filters), placeholderData: (prev) => prev });

  return (
    <div>
      <FilterBar
        actions={
          mayCreate ? (
            <Link href="/payments/new" className={buttonClass("primary")} data-testid="new-batch">
              <Plus className="size-4" aria-hidden /> New batch
            </Link>
          ) : null
        }
      >
        <FilterSelect
          label="Status"
          value={f.status}
          options={STATUS_OPTIONS}
          onChange={(v) => void setF({ status: (v as (typeof BATCH_STATUSES)[number] | null) ?? null, page: null })}
          testId="filter-status"
        />
        <FilterDate label="Created from" value={f.from} onChange={(v) => void setF({ from: v, page: null })} />
        <FilterDate label="Created to" value={f.to} onChange={(v) => void setF({ to: v, page: null })} />
      </FilterBar>
      {q.isPending ? (
        <SkeletonRows />
      ) : q.isError ? (
        <ProblemState title="The batches could not be loaded" message={errorText(q.error, "Loading the batches")} />
      ) : q.data.items.length === 0 ? (
        <EmptyState title="No payment batches match" icon={Send}>
          {mayCreate
            ? "Create a batch, or change the filters."
            : "Change the filters, or ask a treasurer to create a batch."}
        </EmptyState>
      ) : (
        <>
          <BatchesTable batches={q.data.items} />
          <PagerOf page={q.data} onPage={(p) => void setF({ page: p > 1 ? p : null })} />
        </>
      )}
    </div>
  );
}

function BatchesTable({ batches }: { batches: PaymentBatch[] }) {
  return (
    <Table label="Payment batches">
      <thead>
        <tr>
          <Th>Created</Th>
          <Th>Batch</Th>
          <Th>Status</Th>
          <Th>Execution date</Th>
          <Th align="right">Instructions</Th>
          <Th align="right">Total</Th>
        </tr>
      </thead>
      <tbody>
        {batches.map((b) => (
          <tr key={b.id} className="hover:bg-slate-50" data-testid="batch-row" data-batch-id={b.id}>
            <Td className="text-slate-600">
              <Timestamp value={b.created_at} />
            </Td>
            <Td mono>
              <Link href={`/payments/${b.id}`} className="text-sky-800 underline-offset-2 hover:underline">
                {b.id.slice(0, 8)}
              </Link>
              {b.reference ? <span className="ml-2 font-sans text-[13px] text-slate-800">{b.reference}</span> : null}
            </Td>
            <Td>
              <StatusBadge status={b.status} />
            </Td>
            <Td>
              {b.requested_execution_date ? (
                <BusinessDate date={b.requested_execution_date} />
              ) : (
                <span className="text-slate-400">—</span>
              )}
            </Td>
            <Td align="right">{b.instruction_count}</Td>
            <Td align="right">
              <Amount value={b.total_amount} currency={b.currency} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
