"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import * as Tabs from "@radix-ui/react-tabs";
import { GitCompareArrows, Keyboard } from "lucide-react";
import type { MatchReviewRow } from "@/lib/bff/queries/match-views";
import { toQueryString } from "@/components/data/bff-fetch";
import { Timestamp } from "@/components/format/business-date";
import { Button } from "@/components/ui/button";
import { EmptyState, ProblemState, SkeletonRows } from "@/components/ui/states";
import { HiddenTh, Table, Th } from "@/components/ui/table";
import { FilterBar, FilterSelect, Pager } from "@/components/views/controls";
import { errorText } from "@/components/review/error-text";
import { KeyboardHelp } from "@/components/review/keyboard-help";
import { RowResultText } from "@/components/review/row-result";
import { SelectCell } from "@/components/review/select-cell";
import { useReviewKeys } from "@/components/review/use-review-keys";
import { useRowDecisions } from "@/components/review/use-row-decisions";
import { matchFilterParsers, matchQueries, reviewFilters } from "./match-queries";
import { MatchDecisionDialog, type MatchAction as D } from "./match-decision-dialog";
import { DecisionInfo, InstructionSide, TransactionSide } from "./match-sides";
import { ScoreBreakdown } from "./score-breakdown";

const BANDS = [
  { value: "high", label: "High (90–100)" },
  { value: "medium", label: "Medium (70–89)" },
  { value: "low", label: "Low (below 70)" },
];
const td = "border-b border-slate-100 px-3 py-2 align-top";

/**
 * The reconciliation review (issue 6 §4): proposed matches with the
 * instruction and the transaction side by side, score and its breakdown;
 * filters by score band and date; confirm or reject one or the selected,
 * with a result per row; the review keyboard model; decided matches in the
 * second tab.
 */
export function MatchReview({ mayDecide }: { mayDecide: boolean }) {
  const [f, setF] = useQueryStates(matchFilterParsers, { shallow: true, history: "replace" });
  const filters = reviewFilters(f);
  const listKey = matchQueries.review(filters).queryKey;
  const q = useQuery({ ...matchQueries.review(filters), placeholderData: (p) => p });
  const rows = q.data?.items ?? [];
  const proposed = f.tab === "proposed";
  const { results, keyFor, decideMany } = useRowDecisions<MatchReviewRow, D>({
    listKey,
    invalidate: [matchQueries.all()],
    idOf: (r) => r.match.id,
    url: (r, d) =>
      `/api/treasury/reconciliation/matches/${r.match.id}/${d}${toQueryString({ company_id: r.match.company_id })}`,
    applied: () => null,
    done: { confirm: "Confirmed", reject: "Rejected" },
    noun: { confirm: "The confirmation", reject: "The rejection" },
    label: (r) => `Match ${r.instruction?.end_to_end_id ?? r.match.id.slice(0, 8)}`,
  });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<{ rows: MatchReviewRow[]; d: D } | null>(null);
  const [help, setHelp] = useState(false);
  const canAct = mayDecide && proposed;
  function open(list: MatchReviewRow[], d: D) {
    if (!canAct || list.length === 0) return;
    for (const r of list) keyFor(r.match.id, d);
    setDialog({ rows: list, d });
  }
  const toggle = (id: string) =>
    setSelected((s) => (s.has(id) ? new Set([...s].filter((x) => x !== id)) : new Set([...s, id])));
  const { active, setActive } = useReviewKeys({
    count: rows.length,
    enabled: !dialog && !help && canAct,
    onToggle: (i) => rows[i] && toggle(rows[i].match.id),
    onApprove: (i) => rows[i] && open([rows[i]], "confirm"),
    onReject: (i) => rows[i] && open([rows[i]], "reject"),
    onHelp: () => setHelp(true),
  });
  const chosen = rows.filter((r) => selected.has(r.match.id));

  return (
    <Tabs.Root
      value={f.tab}
      onValueChange={(v) => void setF({ tab: v === "decided" ? "decided" : "proposed", page: null })}
    >
      <Tabs.List aria-label="Matches" className="mb-3 flex gap-1 border-b border-slate-200">
        {(["proposed", "decided"] as const).map((t) => (
          <Tabs.Trigger
            key={t}
            value={t}
            className="-mb-px border-b-2 border-transparent px-3 py-2 text-[13px] font-medium text-slate-600 data-[state=active]:border-slate-900 data-[state=active]:text-slate-900"
          >
            {t === "proposed" ? "To review" : "Decided"}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value={f.tab} tabIndex={-1}>
        <FilterBar
          actions={
            canAct ? (
              <>
                <Button variant="ghost" onClick={() => setHelp(true)} aria-label="Keyboard shortcuts">
                  <Keyboard className="size-4" aria-hidden /> ?
                </Button>
                <Button disabled={chosen.length === 0} onClick={() => open(chosen, "reject")} data-testid="bulk-reject">
                  Reject selected{chosen.length ? ` (${chosen.length})` : ""}
                </Button>
                <Button
                  variant="primary"
                  disabled={chosen.length === 0}
                  onClick={() => open(chosen, "confirm")}
                  data-testid="bulk-confirm"
                >
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
            <label key={k} className="flex flex-col gap-1 text-xs font-medium text-slate-600">
              {proposed ? "Proposed" : "Decided"} {k}
              <input
                type="date"
                value={f[k] ?? ""}
                onChange={(e) => void setF({ [k]: e.target.value || null, page: null })}
                className="h-8 rounded-md border border-slate-300 bg-white px-2 text-[13px] text-slate-900"
              />
            </label>
          ))}
        </FilterBar>
        {q.isPending ? (
          <SkeletonRows />
        ) : q.isError ? (
          <ProblemState title="The matches could not be loaded" message={errorText(q.error, "Loading the matches")} />
        ) : rows.length === 0 ? (
          <EmptyState title={proposed ? "No proposed matches to review" : "No decided matches"} icon={GitCompareArrows}>
            {proposed
              ? "Matches appear when the bank books a payment; change the filters to see more."
              : "Confirmed and rejected matches appear here."}
          </EmptyState>
        ) : (
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
                {rows.map((r, i) => (
                  <tr
                    key={r.match.id}
                    data-row-index={i}
                    tabIndex={-1}
                    onClick={() => setActive(i)}
                    data-testid="match-row"
                    data-e2e={r.instruction?.end_to_end_id ?? ""}
                    className={`${canAct && i === active ? "bg-sky-50/70 shadow-[inset_3px_0_0_var(--color-sky-600)]" : ""} outline-none`}
                  >
                    {canAct && (
                      <SelectCell
                        className={td}
                        label={`Select match ${r.instruction?.end_to_end_id ?? r.match.id.slice(0, 8)}`}
                        checked={selected.has(r.match.id)}
                        onToggle={() => toggle(r.match.id)}
                      />
                    )}
                    <td className={td}>{r.company_name}</td>
                    <td className={`${td} min-w-56`}>
                      <InstructionSide row={r} />
                    </td>
                    <td className={`${td} min-w-56`}>
                      <TransactionSide row={r} />
                    </td>
                    <td className={td}>
                      <ScoreBreakdown score={r.match.score} breakdown={r.match.score_breakdown} />
                    </td>
                    <td className={`${td} text-slate-600`}>
                      {!proposed ? (
                        <DecisionInfo row={r} />
                      ) : r.match.created_at ? (
                        <Timestamp value={r.match.created_at} />
                      ) : (
                        "—"
                      )}
                    </td>
                    {canAct && (
                      <td className={`${td} whitespace-nowrap`}>
                        <div className="flex flex-col gap-1">
                          <Button variant="primary" onClick={() => open([r], "confirm")} data-testid="confirm-match">
                            Confirm
                          </Button>
                          <Button onClick={() => open([r], "reject")} data-testid="reject-match">
                            Reject
                          </Button>
                        </div>
                        <RowResultText result={results[r.match.id]} />
                      </td>
                    )}
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
            {canAct && (
              <p className="mt-2 text-xs text-slate-500">Keys: j / k move · x select · a confirm · r reject · ? help</p>
            )}
          </>
        )}
      </Tabs.Content>
      {dialog && (
        <MatchDecisionDialog
          rows={dialog.rows}
          decision={dialog.d}
          onClose={() => setDialog(null)}
          onConfirm={async (reason) => {
            await decideMany(dialog.rows, dialog.d, reason ? { reason } : undefined);
            setSelected(new Set());
          }}
        />
      )}
      <KeyboardHelp open={help} onOpenChange={setHelp} approveLabel="Confirm" />
    </Tabs.Root>
  );
}
