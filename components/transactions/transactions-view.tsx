"use client";

import dynamic from "next/dynamic";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { useCallback, useEffect, useMemo, useState } from "react";
import { ArrowLeftRight } from "lucide-react";
import type { Transaction } from "@treasury/contract";
import type { BffPage } from "@/lib/views/bff-page";
import { resolveDateRange } from "@/lib/url-state/date-range";
import { matchesText, transactionFilterParsers } from "@/lib/url-state/filters";
import { shouldLoadForSearch, type SearchState } from "@/lib/views/transaction-search";
import { TransactionsTable } from "@/components/tables/transactions-table";
import { useFlowTotals } from "@/components/format/use-totals";
import { CsvExportButton } from "@/components/export/csv-export-button";
import { BffRequestError } from "@/components/data/bff-fetch";
import { EmptyState, ProblemState, SkeletonRows } from "@/components/ui/states";
import { TransactionFilters } from "./transaction-filters";
import { SearchStatus } from "./search-status";
import { CategorySelect, TransactionTotals } from "./transaction-totals";
import { transactionListQueries, transactionsExportUrl, type TransactionQueryFilters } from "./transaction-queries";

// Closed at first paint: the drawer (and Radix) loads after hydration instead of on the first load.
const TransactionDrawer = dynamic(() => import("./transaction-drawer").then((m) => m.TransactionDrawer), {
  ssr: false,
});

const retryButton =
  "h-8 rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-700 hover:bg-slate-100";

/**
 * Transactions with URL-held filters: date range, direction,
 * currency (and account when not fixed) are spec filters sent upstream.
 * Pages of 1,000 load while scrolling. The text search has no upstream
 * filter, so while it is set every page of the filtered range is loaded,
 * with its progress shown, and the search runs over all of them
 * (`lib/views/transaction-search`); totals per currency are exact decimals
 * over the rows shown.
 */
export function TransactionsView({
  companyId,
  today,
  currencies,
  accounts,
  fixedAccountId,
  initial,
}: {
  companyId: string;
  today: string;
  currencies: string[];
  accounts: { id: string; name: string; currency: string }[];
  fixedAccountId?: string;
  initial?: { filters: TransactionQueryFilters; page: BffPage<Transaction> };
}) {
  const [f, setF] = useQueryStates(transactionFilterParsers, { shallow: true, history: "replace" });
  const range = resolveDateRange(f, today, "30d");
  const filters: TransactionQueryFilters = useMemo(
    () => ({
      from_date: range.from_date,
      to_date: range.to_date,
      ...(f.direction ? { direction: f.direction } : {}),
      ...(f.currency ? { currency: f.currency } : {}),
      ...((fixedAccountId ?? f.account) ? { account_id: fixedAccountId ?? f.account ?? undefined } : {}),
    }),
    [range.from_date, range.to_date, f.direction, f.currency, f.account, fixedAccountId],
  );
  const sameAsInitial = initial && JSON.stringify(initial.filters) === JSON.stringify(filters);
  const q = useInfiniteQuery({
    ...transactionListQueries.infinite(companyId, filters),
    ...(sameAsInitial && initial ? { initialData: { pages: [initial.page], pageParams: [1] } } : {}),
  });
  const loaded = useMemo(() => q.data?.pages.flatMap((p) => p.items) ?? [], [q.data]);
  const rows = useMemo(
    () =>
      loaded.filter(
        (t) =>
          (!f.q || matchesText(f.q, t.counterparty_name, t.remittance, t.end_to_end_id)) &&
          (!f.category || (t as Transaction & { category?: string }).category === f.category),
      ),
    [loaded, f.q, f.category],
  );
  const categories = useMemo(
    () =>
      [
        ...new Set(loaded.map((t) => (t as Transaction & { category?: string }).category).filter(Boolean)),
      ].sort() as string[],
    [loaded],
  );
  // null for a moment after hydration while decimal.js loads (components/format/use-totals).
  const totals = useFlowTotals(rows);
  const [open, setOpen] = useState<Transaction | null>(null);
  const names = useMemo(() => new Map(accounts.map((a) => [a.id, a.name])), [accounts]);
  const accountName = useCallback((id: string) => names.get(id), [names]);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = q;
  const search: SearchState = {
    q: f.q,
    loaded: loaded.length,
    total: q.data?.pages[0]?.count ?? null,
    hasNext: hasNextPage,
    failed: isFetchNextPageError,
  };
  const more = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  // A search reads the remaining pages of the range one after another (each page's arrival re-runs this).
  const loadForSearch = shouldLoadForSearch(search, isFetchingNextPage);
  useEffect(() => {
    if (loadForSearch) void fetchNextPage({ cancelRefetch: false });
  }, [loadForSearch, fetchNextPage]);

  return (
    <div>
      <CategorySelect categories={categories} value={f.category} onChange={(category) => void setF({ category })} />
      <TransactionFilters
        range={range}
        values={f}
        currencies={currencies}
        accounts={accounts}
        showAccount={!fixedAccountId}
        onChange={(patch) => setF(patch)}
      />
      {q.isPending ? (
        <SkeletonRows rows={12} />
      ) : q.isError && !q.data ? (
        <div className="space-y-3">
          <ProblemState
            title="Transactions could not be loaded"
            message={q.error.message}
            requestId={q.error instanceof BffRequestError ? q.error.requestId : undefined}
          />
          <button type="button" onClick={() => void q.refetch()} className={retryButton}>
            Retry
          </button>
        </div>
      ) : rows.length === 0 && !hasNextPage ? (
        <EmptyState
          title={f.q ? `No transactions in this range match “${f.q}”` : "No transactions in this range"}
          icon={ArrowLeftRight}
        >
          {f.q
            ? `Searched all ${loaded.length.toLocaleString()} transactions of the range. Change the search, widen ` +
              `the date range or clear a filter.`
            : "Widen the date range or clear a filter."}
        </EmptyState>
      ) : (
        <>
          <div className="mb-2 flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
            <SearchStatus
              state={search}
              shown={rows.length}
              loadingMore={isFetchingNextPage}
              onRetry={() => void fetchNextPage()}
            />
            <CsvExportButton
              href={transactionsExportUrl(filters, f.q, f.category)}
              fileName={`transactions_${filters.from_date}_${filters.to_date}.csv`}
            />
          </div>
          <TransactionsTable
            rows={rows}
            onOpen={setOpen}
            onEndReached={more}
            height={520}
            accountName={fixedAccountId ? undefined : accountName}
          />
          <TransactionTotals totals={totals} searching={Boolean(f.q)} partial={hasNextPage} />
        </>
      )}
      <TransactionDrawer transaction={open} accountName={accountName} onClose={() => setOpen(null)} />
    </div>
  );
}
