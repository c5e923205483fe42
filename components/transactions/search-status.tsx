"use client";

import { searchPhase, searchSummary, type SearchState } from "@/lib/views/transaction-search";
import { ProgressBar } from "@/components/ui/progress-bar";

/**
 * The line above the transactions list: how many rows are shown and loaded,
 * and while a search reads the rest of the range, a progress bar of the
 * rows read (wording in `lib/views/transaction-search`).
 */
export function SearchStatus({
  state,
  shown,
  loadingMore,
  onRetry,
}: {
  state: SearchState;
  shown: number;
  loadingMore: boolean;
  onRetry: () => void;
}) {
  const phase = searchPhase(state);
  return (
    <div
      className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600"
      data-testid="transactions-status"
      data-phase={phase}
    >
      {phase === "loading" && (
        <ProgressBar
          label="Search: transactions read"
          value={state.loaded}
          max={state.total}
          testId="search-progress"
        />
      )}
      <p
        aria-live="polite"
        data-testid="transactions-count"
        className={phase === "capped" || phase === "failed" ? "text-amber-800" : undefined}
      >
        {searchSummary(state, shown)}
        {phase === "browse" && loadingMore ? " · loading more…" : ""}
      </p>
      {state.failed && (
        <button
          type="button"
          onClick={onRetry}
          className={
            "h-7 rounded-md border border-slate-300 bg-white px-2.5 text-xs font-medium text-slate-700 " +
            "hover:bg-slate-100"
          }
        >
          Retry
        </button>
      )}
    </div>
  );
}
