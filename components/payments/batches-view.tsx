"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { Plus, Send } from "lucide-react";
import { BATCH_STATUSES } from "@treasury/contract/enums";
import { EmptyState, ProblemState, SkeletonRows } from "@/components/ui/states";
import { buttonClass } from "@/components/ui/button";
import { FilterBar, FilterDate, FilterSelect, PagerOf } from "@/components/list-controls/controls";
import { errorText, stateInWords } from "@/components/data/error-text";
import { batchFilterParsers, batchListFilters, paymentQueries } from "./payment-queries";
import { BatchesTable } from "./batches-table";

const STATUS_OPTIONS = BATCH_STATUSES.map((s) => ({ value: s, label: stateInWords(s) }));

/** The page's description, following the all-companies option as it changes in the URL. */
export function BatchesScope({ companyName }: { companyName: string }) {
  const [f] = useQueryStates(batchFilterParsers, { shallow: true, history: "replace" });
  return <>{f.companies === "all" ? "Payment batches of all your companies" : `Payment batches of ${companyName}`}</>;
}

/**
 * The batches of the selected company, or of all the user's companies (`companies=all`, offered when the user has
 * more than one; a company column then says whose), with URL-held filters (status, creation dates, page).
 */
export function BatchesView({
  companyId,
  mayCreate,
  companyCount,
}: {
  companyId: string;
  mayCreate: boolean;
  companyCount: number;
}) {
  const [f, setF] = useQueryStates(batchFilterParsers, { shallow: true, history: "replace" });
  const filters = batchListFilters(f);
  const q = useQuery({ ...paymentQueries.list(companyId, filters), placeholderData: (prev) => prev });
  const all = f.companies === "all";

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
        {companyCount > 1 && (
          <label className="flex h-8 cursor-pointer items-center gap-2 text-[13px] text-slate-800">
            <input
              type="checkbox"
              className="size-4 accent-sky-700"
              checked={all}
              onChange={(e) => void setF({ companies: e.target.checked ? "all" : null, page: null })}
              data-testid="all-companies"
            />
            All my companies ({companyCount})
          </label>
        )}
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
          <BatchesTable rows={q.data.items} showCompany={all} currentCompanyId={companyId} />
          <PagerOf page={q.data} onPage={(p) => void setF({ page: p > 1 ? p : null })} />
        </>
      )}
    </div>
  );
}
