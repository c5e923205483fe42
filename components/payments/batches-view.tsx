"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { Plus, Send } from "lucide-react";
import { BATCH_STATUSES } from "@/lib/contract/enums";
import { Amount } from "@/components/format/amount";
import { BusinessDate, Timestamp } from "@/components/format/business-date";
import { buttonClass } from "@/components/ui/button";
import { EmptyState, ProblemState, SkeletonRows } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { FilterBar, FilterSelect, Pager } from "@/components/views/controls";
import { errorText, stateInWords } from "@/components/review/error-text";
import { batchFilterParsers, paymentQueries, type BatchListFilters } from "./payment-queries";
import { StatusBadge } from "./status-badge";

const STATUS_OPTIONS = BATCH_STATUSES.map((s) => ({ value: s, label: stateInWords(s) }));

/** The batches of the selected company with URL-held filters (issue 6 §2). */
export function BatchesView({ companyId, mayCreate }: { companyId: string; mayCreate: boolean }) {
  const [f, setF] = useQueryStates(batchFilterParsers, { shallow: true, history: "replace" });
  const filters: BatchListFilters = {
    ...(f.status ? { status: f.status } : {}),
    ...(f.from ? { from_date: f.from } : {}),
    ...(f.to ? { to_date: f.to } : {}),
    ...(f.page && f.page > 1 ? { page: f.page } : {}),
  };
  const q = useQuery({ ...paymentQueries.list(companyId, filters), placeholderData: (prev) => prev });
  const dateInput = "h-8 rounded-md border border-slate-300 bg-white px-2 text-[13px] text-slate-900";

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
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Created from
          <input
            type="date"
            className={dateInput}
            value={f.from ?? ""}
            onChange={(e) => void setF({ from: e.target.value || null, page: null })}
          />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Created to
          <input
            type="date"
            className={dateInput}
            value={f.to ?? ""}
            onChange={(e) => void setF({ to: e.target.value || null, page: null })}
          />
        </label>
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
              {q.data.items.map((b) => (
                <tr key={b.id} className="hover:bg-slate-50" data-testid="batch-row" data-batch-id={b.id}>
                  <Td className="text-slate-600">
                    <Timestamp value={b.created_at} />
                  </Td>
                  <Td mono>
                    <Link href={`/payments/${b.id}`} className="text-sky-800 underline-offset-2 hover:underline">
                      {b.id.slice(0, 8)}
                    </Link>
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
          <Pager
            page={q.data.page}
            totalPages={q.data.total_pages}
            count={q.data.count}
            hasNext={q.data.has_next}
            hasPrevious={q.data.has_previous}
            onPage={(p) => void setF({ page: p > 1 ? p : null })}
          />
        </>
      )}
    </div>
  );
}
