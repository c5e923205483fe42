"use client";

import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import * as Tabs from "@radix-ui/react-tabs";
import { GitCompareArrows } from "lucide-react";
import type { ExactSummary, MatchReviewPage, MatchReviewRow } from "@/lib/views/reconciliation";
import { formatMoney } from "@/lib/money";
import { callBff } from "@/components/data/bff-fetch";
import { reconciliationEndpoints } from "@/lib/bff/areas/reconciliation/endpoints";
import { errorText } from "@/components/data/error-text";
import { useLocale } from "@/components/format/use-locale";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { Amount } from "@/components/format/amount";
import { EmptyState, ProblemState, SkeletonRows } from "@/components/ui/states";
import { HiddenTh, Table, Th } from "@/components/ui/table";
import { FilterBar, FilterDate, FilterSelect, PagerOf } from "@/components/list-controls/controls";
import { KeyboardHelp, KeyboardHelpButton } from "@/components/review-queue/keyboard-help";
import { useReviewQueue } from "@/components/review-queue/use-review-queue";
import { invalidateReconciliation, matchFilterParsers, matchQueries, reviewFilters } from "./match-queries";
import { MatchDecisionDialog } from "./match-decision-dialog";
import { matchDecisions } from "./match-decisions";
import { MatchRow } from "./match-row";
import { BulkConfirmDialog } from "./bulk-confirm-dialog";
import type { RowResult } from "@/components/review-queue/row-result";

const BANDS = [
  { value: "high", label: "High (90–100)" },
  { value: "medium", label: "Medium (70–89)" },
  { value: "low", label: "Low (below 70)" },
];

const TAB_TRIGGER =
  "-mb-px border-b-2 border-transparent px-3 py-2 text-[13px] font-medium text-slate-600 " +
  "data-[state=active]:border-slate-900 data-[state=active]:text-slate-900";

type Filters = ReturnType<typeof useMatchFilters>;
type Queue = ReturnType<typeof useMatchQueue>;

function useMatchFilters() {
  const [f, setF] = useQueryStates(matchFilterParsers, { shallow: true, history: "replace" });
  return { f, setF, filters: reviewFilters(f), proposed: f.tab === "proposed" };
}

function useMatchQueue(mf: Filters, rows: readonly MatchReviewRow[], canAct: boolean) {
  return useReviewQueue({ ...matchDecisions(mf.filters), rows, approve: "confirm", reject: "reject", canAct });
}

/**
 * The reconciliation review: proposed matches with the instruction and the
 * transaction side by side, score and its breakdown; filters by score band
 * and date (in the URL); confirm or reject one or the selected, with a
 * result per row; the review keyboard model; decided matches in the second tab.
 */
export function MatchReview({ mayDecide }: { mayDecide: boolean }) {
  const mf = useMatchFilters();
  const q = useQuery({ ...matchQueries.review(mf.filters), placeholderData: (p) => p });
  const rows = q.data?.items ?? [];
  const canAct = mayDecide && mf.proposed;
  const queue = useMatchQueue(mf, rows, canAct);
  // Bulk confirm goes through one request (the bulk route); its per-match results show on the rows too.
  const [bulk, setBulk] = useState<{ rows: MatchReviewRow[]; exact?: ExactSummary } | null>(null);
  const quickConfirm = useQuickConfirm(queue);
  const exact = canAct ? q.data?.exact : undefined;
  const [bulkResults, setBulkResults] = useState<Record<string, RowResult>>({});

  return (
    <Tabs.Root
      value={mf.f.tab}
      onValueChange={(v) => void mf.setF({ tab: v === "decided" ? "decided" : "proposed", page: null })}
    >
      <Tabs.List aria-label="Matches" className="mb-3 flex gap-1 border-b border-slate-200">
        {(["proposed", "decided"] as const).map((t) => (
          <Tabs.Trigger key={t} value={t} className={TAB_TRIGGER}>
            {t === "proposed" ? "To review" : "Decided"}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value={mf.f.tab} tabIndex={-1}>
        <MatchFilters mf={mf} queue={canAct ? queue : null} onBulkConfirm={() => setBulk({ rows: queue.chosen })} />
        {exact && exact.count > 0 && (
          <ExactBar
            exact={exact}
            onConfirm={() => setBulk({ rows: rows.filter((r) => exact.ids.includes(r.match.id)), exact })}
          />
        )}
        {canAct && rows.length > 0 && <BulkSelect rows={rows} queue={queue} />}
        {q.isPending ? (
          <SkeletonRows />
        ) : q.isError ? (
          <ProblemState title="The matches could not be loaded" message={errorText(q.error, "Loading the matches")} />
        ) : rows.length === 0 ? (
          <EmptyState
            title={mf.proposed ? "No proposed matches to review" : "No decided matches"}
            icon={GitCompareArrows}
          >
            {mf.proposed
              ? "Matches appear when the bank books a payment; change the filters to see more."
              : "Confirmed and rejected matches appear here."}
          </EmptyState>
        ) : (
          <MatchResults
            page={q.data}
            mf={mf}
            queue={queue}
            canAct={canAct}
            mayUndo={mayDecide}
            bulkResults={bulkResults}
            onQuickConfirm={quickConfirm}
          />
        )}
      </Tabs.Content>
      {queue.dialog && (
        <MatchDecisionDialog
          rows={queue.dialog.rows}
          decision={queue.dialog.decision}
          onClose={queue.close}
          onConfirm={queue.confirm}
        />
      )}
      {bulk && (
        <BulkConfirmDialog
          rows={bulk.rows}
          exact={bulk.exact}
          onClose={() => setBulk(null)}
          onResults={(r) => {
            setBulkResults((b) => ({ ...b, ...r }));
            queue.selectOnly([]);
          }}
        />
      )}
      <KeyboardHelp open={queue.help} onOpenChange={queue.setHelp} approveLabel="Confirm" />
    </Tabs.Root>
  );
}

/**
 * One-click confirmation of an exact match: confirmed at once, then a toast naming the payee and the amount with an
 * Undo, which asks the BFF to reopen the match (the server allows the confirmer 15 minutes).
 */
function useQuickConfirm(queue: Queue) {
  const qc = useQueryClient();
  const locale = useLocale();
  async function undo(r: MatchReviewRow) {
    try {
      await callBff(reconciliationEndpoints.undoConfirm, {
        params: { id: r.match.id },
        idempotencyKey: crypto.randomUUID(),
      });
      toast.success("Undone: the match is back in the review.");
    } catch (err) {
      toast.error(errorText(err, "The undo"));
    } finally {
      void invalidateReconciliation(qc);
    }
  }
  return async (r: MatchReviewRow) => {
    if (!(await queue.decideNow(r, "confirm"))) return;
    const i = r.instruction;
    const what = i ? `${i.creditor_name}, ${formatMoney(i.amount, i.currency, { locale })}` : "the match";
    toast.success(`Confirmed ${what}.`, { action: { label: "Undo", onClick: () => void undo(r) }, duration: 10_000 });
  };
}

/** "Confirm all exact matches (N)": how many proposals score 100 under the filters, and their total per currency. */
function ExactBar({ exact, onConfirm }: { exact: ExactSummary; onConfirm: () => void }) {
  return (
    <div
      className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-2 rounded border border-emerald-200 bg-emerald-50 px-3 py-2 text-[13px]"
      data-testid="exact-bar"
    >
      <Button variant="primary" onClick={onConfirm} data-testid="confirm-exact">
        Confirm all exact matches ({exact.ids.length})
      </Button>
      <span className="text-slate-700" data-testid="exact-totals">
        {exact.totals.map((t, i) => (
          <span key={t.currency}>
            {i > 0 && " · "}
            <Amount value={t.total} currency={t.currency} />
          </span>
        ))}
        {exact.count > exact.ids.length && ` — the first ${exact.ids.length} of ${exact.count}`}
      </span>
    </div>
  );
}

/** Lowest scores offered by "select by score". */
const SELECT_SCORES = [100, 95, 90, 80, 70] as const;

/**
 * Select all the shown proposals, those scoring at least a chosen score, or none; the count selected. Selecting
 * works on the page shown (at most its page size), which is what one bulk dialog confirms.
 */
function BulkSelect({ rows, queue }: { rows: readonly MatchReviewRow[]; queue: Queue }) {
  const selectAtLeast = (min: number) =>
    queue.selectOnly(rows.filter((r) => r.match.score >= min).map((r) => r.match.id));
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2 text-[13px]" data-testid="bulk-select">
      <Button onClick={() => queue.selectOnly(rows.map((r) => r.match.id))} data-testid="select-all">
        Select all ({rows.length})
      </Button>
      <label className="flex items-center gap-2 text-slate-700">
        Select score at least
        <select
          className="min-h-8 rounded border border-slate-300 bg-white px-2 py-1"
          value=""
          onChange={(e) => e.target.value && selectAtLeast(Number(e.target.value))}
          data-testid="select-by-score"
        >
          <option value="">Choose…</option>
          {SELECT_SCORES.map((s) => (
            <option key={s} value={s}>
              {s === 100 ? "100" : `≥ ${s}`} ({rows.filter((r) => r.match.score >= s).length})
            </option>
          ))}
        </select>
      </label>
      <Button onClick={() => queue.selectOnly([])} disabled={queue.chosen.length === 0} data-testid="select-none">
        Clear selection
      </Button>
      <span className="text-slate-600" aria-live="polite">
        {queue.chosen.length} selected
      </span>
    </div>
  );
}

/** Score band and date filters; the bulk actions when the user may decide (`queue` set). */
function MatchFilters({ mf, queue, onBulkConfirm }: { mf: Filters; queue: Queue | null; onBulkConfirm: () => void }) {
  const { f, setF } = mf;
  const chosen = queue?.chosen ?? [];
  return (
    <FilterBar
      actions={
        queue ? (
          <>
            <KeyboardHelpButton onOpen={() => queue.setHelp(true)} />
            <Button
              disabled={chosen.length === 0}
              onClick={() => queue.open(chosen, "reject")}
              data-testid="bulk-reject"
            >
              Reject selected{chosen.length ? ` (${chosen.length})` : ""}
            </Button>
            <Button variant="primary" disabled={chosen.length === 0} onClick={onBulkConfirm} data-testid="bulk-confirm">
              Confirm selected{chosen.length ? ` (${chosen.length})` : ""}
            </Button>
          </>
        ) : null
      }
    >
      <FilterSelect
        label="Score"
        value={f.band}
        options={BANDS}
        onChange={(v) => void setF({ band: (v as "high" | "medium" | "low" | null) ?? null, page: null })}
        anyLabel="Any score"
      />
      {(["from", "to"] as const).map((k) => (
        <FilterDate
          key={k}
          label={`${mf.proposed ? "Proposed" : "Decided"} ${k}`}
          value={f[k]}
          onChange={(v) => void setF({ [k]: v, page: null })}
        />
      ))}
    </FilterBar>
  );
}

/** The page of matches, its pager and, when the user may decide, the keys line. */
function MatchResults({
  page,
  mf,
  queue,
  canAct,
  mayUndo,
  bulkResults,
  onQuickConfirm,
}: {
  page: MatchReviewPage;
  mf: Filters;
  queue: Queue;
  canAct: boolean;
  mayUndo: boolean;
  bulkResults: Record<string, RowResult>;
  onQuickConfirm: (r: MatchReviewRow) => Promise<void>;
}) {
  const { proposed } = mf;
  return (
    <>
      <Table label={proposed ? "Proposed matches" : "Decided matches"}>
        <thead>
          <tr>
            {canAct && <HiddenTh>Select</HiddenTh>}
            <Th>Company</Th>
            <Th>Payment instruction</Th>
            <Th>Bank transaction</Th>
            <Th>Score</Th>
            <Th>{proposed ? "Proposed" : "Decision"}</Th>
            {canAct && <HiddenTh>Actions</HiddenTh>}
          </tr>
        </thead>
        <tbody>
          {page.items.map((r, i) => (
            <MatchRow
              key={r.match.id}
              row={r}
              index={i}
              proposed={proposed}
              canAct={canAct}
              active={i === queue.active}
              selected={queue.selected.has(r.match.id)}
              result={queue.results[r.match.id] ?? bulkResults[r.match.id]}
              mayUndo={mayUndo}
              onActivate={() => queue.setActive(i)}
              onSelect={() => queue.toggle(r.match.id)}
              onDecide={(d) => queue.open([r], d)}
              onQuickConfirm={() => void onQuickConfirm(r)}
            />
          ))}
        </tbody>
      </Table>
      <PagerOf page={page} onPage={(p) => void mf.setF({ page: p > 1 ? p : null })} />
      {canAct && (
        <p className="mt-2 text-xs text-slate-500">Keys: j / k move · x select · a confirm · r reject · ? help</p>
      )}
    </>
  );
}
