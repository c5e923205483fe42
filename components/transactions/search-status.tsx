"use client";

import { searchPhase, searchSummary, type SearchState } from "@/lib/views/transaction-search";

/**
 * The line above the transactions list: how many rows are shown and loaded,
 * and while a search reads the rest of the range, a progress bar of the
 * rows read (issue 5 §4; wording in `lib/views/transaction-search`).
 */
export function SearchStatus({ state, shown, loadingMore, onRetry }: { state: SearchState; shown: number; loadingMore: boolean; onRetry: () => void }) {
  const phase = searchPhase(state);
  const pct = state.total ? Math.min(100, Math.round((state.loaded / Math.max(state.total, 1)) * 100)) : null;
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600" data-testid="transactions-status" data-phase={phase}>
      {phase === "loading" && (
        <div
          role="progressbar"
          aria-label="Search: transactions read"
          aria-valuemin={0}
          aria-valuemax={state.total ?? undefined}
          aria-valuenow={state.loaded}
          className="h-2 w-32 overflow-hidden rounded-full bg-slate-200"
          data-testid="search-progress"
        >
          <div className={`h-full bg-sky-600 transition-[width] ${pct === null ? "w-1/3 animate-pulse" : ""}`} style={pct === null ? undefined : { width: `${pct}%` }} />
        </div>
      )}
      <p aria-live="polite" data-testid="transactions-count" className={phase === "capped" || phase === "failed" ? "text-amber-800" : undefined}>
        {searchSummary(state, shown)}
        {phase === "browse" && loadingMore ? " · loading more…" : ""}
      </p>
      {state.failed && (
        <button type="button" onClick={onRetry} className="h-7 rounded-md border border-slate-300 bg-white px-2.5 text-xs font-medium text-slate-700 hover:bg-slate-100">
          Retry
        </button>
      )}
    </div>
  );
}
