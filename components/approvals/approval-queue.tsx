"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { PasskeyBanner } from "@/components/auth/step-up-notice";
import { CheckCheck, ShieldCheck } from "lucide-react";
import type { ApprovalQueueRow } from "@/lib/views/payments";
import { errorText } from "@/components/data/error-text";
import { Button } from "@/components/ui/button";
import { EmptyState, ProblemState, SkeletonRows } from "@/components/ui/states";
import { HiddenTh, Table, Th } from "@/components/ui/table";
import { KeyboardHelp, KeyboardHelpButton } from "@/components/review-queue/keyboard-help";
import { useReviewQueue } from "@/components/review-queue/use-review-queue";
import type { RowResult } from "@/components/review-queue/row-result";
import { approvalQueries, approveBlocker, bulkApproveBlocker } from "./approval-queries";
import { approvalDecisions } from "./approval-decisions";
import { ApprovalRow } from "./approval-row";
import { ApprovalCards } from "./approval-cards";

// Opened on a decision only: the dialog (with its decimal.js totals) loads then, not on the first load.
const DecisionDialog = dynamic(() => import("./decision-dialog").then((m) => m.DecisionDialog), { ssr: false });

type Queue = ReturnType<typeof useApprovalQueue>;

function useApprovalQueue(me: string, rows: readonly ApprovalQueueRow[]) {
  return useReviewQueue({ ...approvalDecisions(me), rows, approve: "approve", reject: "reject", canAct: true });
}

/**
 * The approval queue: pending and partially approved requests across the
 * user's companies, four-eyes explained per row, risk signal badges per row
 * (the signals with their evidence in the expanded row and the dialog),
 * selection and bulk approve with a result per row — a bulk approval leaves
 * out batches with high-risk signals, which need their acknowledgement one by
 * one — and the review keyboard model (j / k / x / a / r / ?). On a phone
 * (below `md`) the rows are cards with full-width Approve / Reject buttons.
 */
export function ApprovalQueue({ me, currentCompanyId }: { me: string; currentCompanyId: string | null }) {
  const q = useQuery(approvalQueries.queue());
  const rows = q.data?.items ?? [];
  const queue = useApprovalQueue(me, rows);
  // Batches a bulk approval left out (high-risk signals): their own result, until decided one by one.
  const [leftOut, setLeftOut] = useState<Record<string, RowResult>>({});

  if (q.isPending) return <SkeletonRows rows={6} />;
  if (q.isError)
    return <ProblemState title="The queue could not be loaded" message={errorText(q.error, "Loading the queue")} />;
  const approvable = queue.chosen.filter((r) => !approveBlocker(r));
  function bulkApprove() {
    const refused: Record<string, RowResult> = {};
    for (const r of approvable) {
      const why = bulkApproveBlocker(r);
      if (why) refused[r.approval.id] = { kind: "error", text: why };
    }
    setLeftOut(refused);
    queue.open(
      approvable.filter((r) => !refused[r.approval.id]),
      "approve",
    );
  }

  return (
    <div>
      <PasskeyBanner />
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <p className="flex items-center gap-2 text-[13px] text-slate-600">
          <ShieldCheck className="size-4 text-slate-500" aria-hidden />
          Four-eyes: you cannot approve a batch you created, and approving the same batch twice counts as one approval.
        </p>
        <div className="flex items-center gap-2">
          <KeyboardHelpButton onOpen={() => queue.setHelp(true)} />
          <Button variant="primary" disabled={approvable.length === 0} onClick={bulkApprove} data-testid="bulk-approve">
            Approve selected{approvable.length ? ` (${approvable.length})` : ""}
          </Button>
        </div>
      </div>
      {rows.length === 0 ? (
        <EmptyState title="Nothing waiting for approval" icon={CheckCheck}>
          Batches submitted in your companies appear here.
        </EmptyState>
      ) : (
        <>
          {/* Phones get cards, wider screens the table; only one of them is displayed (and in the a11y tree). */}
          <div className="md:hidden">
            <ApprovalCards
              rows={rows}
              selected={queue.selected}
              results={Object.fromEntries(
                rows.map((r) => [r.approval.id, queue.results[r.approval.id] ?? leftOut[r.approval.id]]),
              )}
              currentCompanyId={currentCompanyId}
              onSelect={(id) => queue.toggle(id)}
              onDecide={(r, d) => queue.open([r], d)}
            />
          </div>
          <div className="hidden md:block">
            <ApprovalTable rows={rows} queue={queue} leftOut={leftOut} currentCompanyId={currentCompanyId} />
          </div>
        </>
      )}
      <p className="mt-2 hidden text-xs text-slate-500 md:block">
        Keys: j / k move · x select · a approve · r reject · ? help
      </p>
      {queue.dialog && (
        <DecisionDialog
          rows={queue.dialog.rows}
          decision={queue.dialog.decision}
          onClose={queue.close}
          onConfirm={(reason, extra, headers) => queue.confirm(reason, extra, headers)}
        />
      )}
      <KeyboardHelp open={queue.help} onOpenChange={queue.setHelp} approveLabel="Approve" />
    </div>
  );
}

function ApprovalTable({
  rows,
  queue,
  leftOut,
  currentCompanyId,
}: {
  rows: readonly ApprovalQueueRow[];
  queue: Queue;
  leftOut: Record<string, RowResult>;
  currentCompanyId: string | null;
}) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggleExpanded = (id: string) =>
    setExpanded((s) => (s.has(id) ? new Set([...s].filter((x) => x !== id)) : new Set([...s, id])));
  return (
    <Table label="Approval queue">
      <thead>
        <tr>
          <HiddenTh>Select</HiddenTh>
          <Th>Company</Th>
          <Th>Batch</Th>
          <Th>Created by</Th>
          <Th>Age</Th>
          <Th align="right">Instructions</Th>
          <Th align="right">Total</Th>
          <Th>Approvals</Th>
          <HiddenTh>Actions</HiddenTh>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => {
          const id = r.approval.id;
          return (
            <ApprovalRow
              key={id}
              row={r}
              index={i}
              active={i === queue.active}
              selected={queue.selected.has(id)}
              expanded={expanded.has(id)}
              result={queue.results[id] ?? leftOut[id]}
              linkable={r.company_id === currentCompanyId}
              onActivate={() => queue.setActive(i)}
              onSelect={() => queue.toggle(id)}
              onExpand={() => toggleExpanded(id)}
              onDecide={(d) => queue.open([r], d)}
            />
          );
        })}
      </tbody>
    </Table>
  );
}
