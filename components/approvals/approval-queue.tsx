"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { Fragment, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { formatDistanceToNowStrict } from "date-fns";
import { CheckCheck, ChevronDown, ChevronRight, Keyboard, ShieldCheck } from "lucide-react";
import type { ApprovalQueueRow } from "@/lib/bff/queries/payment-views";
import { Amount } from "@/components/format/amount";
import { Button } from "@/components/ui/button";
import { EmptyState, ProblemState, SkeletonRows } from "@/components/ui/states";
import { DetailRow, HiddenTh, Table, Th } from "@/components/ui/table";
import { errorText } from "@/components/review/error-text";
import { KeyboardHelp } from "@/components/review/keyboard-help";
import { RowResultText } from "@/components/review/row-result";
import { SelectCell } from "@/components/review/select-cell";
import { useReviewKeys } from "@/components/review/use-review-keys";
import { approvalQueries, approveBlocker } from "./approval-queries";
import { InstructionPreview } from "./instruction-preview";
import { useDecisions, type Decision } from "./use-decisions";

// Opened on a decision only: the dialog (with its decimal.js totals) loads then, not on the first load.
const DecisionDialog = dynamic(() => import("./decision-dialog").then((m) => m.DecisionDialog), { ssr: false });

const td = "border-b border-slate-100 px-3 py-1.5 align-top";

/**
 * The approval queue (issue 6 §3): pending and partially approved requests
 * across the user's companies, four-eyes explained per row, selection and
 * bulk approve with a result per row, and the review keyboard model.
 */
export function ApprovalQueue({ me, currentCompanyId }: { me: string; currentCompanyId: string | null }) {
  const q = useQuery(approvalQueries.queue());
  const rows = q.data?.items ?? [];
  const { results, keyFor, decideMany } = useDecisions(me);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<{ rows: ApprovalQueueRow[]; decision: Decision } | null>(null);
  const [help, setHelp] = useState(false);

  function open(list: ApprovalQueueRow[], decision: Decision) {
    const allowed = decision === "approve" ? list.filter((r) => !approveBlocker(r)) : list;
    if (allowed.length === 0) return;
    for (const r of allowed) keyFor(r.approval.id, decision);
    setDialog({ rows: allowed, decision });
  }
  const toggle = (id: string, set: Set<string>, update: (s: Set<string>) => void) => {
    const next = new Set(set);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    update(next);
  };
  const { active, setActive } = useReviewKeys({
    count: rows.length,
    enabled: !dialog && !help,
    onToggle: (i) => rows[i] && toggle(rows[i].approval.id, selected, setSelected),
    onApprove: (i) => rows[i] && open([rows[i]], "approve"),
    onReject: (i) => rows[i] && open([rows[i]], "reject"),
    onHelp: () => setHelp(true),
  });

  if (q.isPending) return <SkeletonRows rows={6} />;
  if (q.isError)
    return <ProblemState title="The queue could not be loaded" message={errorText(q.error, "Loading the queue")} />;
  const chosen = rows.filter((r) => selected.has(r.approval.id));
  const approvable = chosen.filter((r) => !approveBlocker(r));

  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <p className="flex items-center gap-2 text-[13px] text-slate-600">
          <ShieldCheck className="size-4 text-slate-500" aria-hidden />
          Four-eyes: you cannot approve a batch you created, and each approver counts once per request.
        </p>
        <div className="flex items-center gap-2">
          <Button variant="ghost" onClick={() => setHelp(true)} aria-label="Keyboard shortcuts">
            <Keyboard className="size-4" aria-hidden /> ?
          </Button>
          <Button
            variant="primary"
            disabled={approvable.length === 0}
            onClick={() => open(approvable, "approve")}
            data-testid="bulk-approve"
          >
            Approve selected{approvable.length ? ` (${approvable.length})` : ""}
          </Button>
        </div>
      </div>
      {rows.length === 0 ? (
        <EmptyState title="Nothing waiting for approval" icon={CheckCheck}>
          Batches submitted in your companies appear here.
        </EmptyState>
      ) : (
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
              const blocker = approveBlocker(r);
              const isOpen = expanded.has(id);
              return (
                <Fragment key={id}>
                  <tr
                    data-row-index={i}
                    data-testid="approval-row"
                    data-batch-id={r.approval.object_id}
                    tabIndex={-1}
                    aria-selected={selected.has(id)}
                    onClick={() => setActive(i)}
                    className={`${i === active ? "bg-sky-50/70 shadow-[inset_3px_0_0_var(--color-sky-600)]" : ""} outline-none`}
                  >
                    <SelectCell
                      className={td}
                      label={`Select batch ${r.approval.object_id.slice(0, 8)}`}
                      checked={selected.has(id)}
                      onToggle={() => toggle(id, selected, setSelected)}
                    />
                    <td className={td}>{r.company_name}</td>
                    <td className={td}>
                      <button
                        type="button"
                        className="inline-flex items-center gap-1 font-mono text-xs text-sky-800"
                        aria-expanded={isOpen}
                        onClick={() => toggle(id, expanded, setExpanded)}
                      >
                        {isOpen ? (
                          <ChevronDown className="size-3.5" aria-hidden />
                        ) : (
                          <ChevronRight className="size-3.5" aria-hidden />
                        )}
                        {r.approval.object_id.slice(0, 8)}
                      </button>
                    </td>
                    <td className={td}>
                      {r.created_by ?? <span className="text-slate-500">outside the dashboard</span>}
                    </td>
                    <td className={`${td} whitespace-nowrap text-slate-600`} suppressHydrationWarning>
                      {formatDistanceToNowStrict(new Date(r.approval.created_at))}
                    </td>
                    <td className={`${td} text-right tabular`}>{r.batch?.instruction_count ?? "—"}</td>
                    <td className={`${td} text-right`}>
                      {r.batch ? <Amount value={r.batch.total_amount} currency={r.batch.currency} /> : "—"}
                    </td>
                    <td className={td}>
                      <span className="tabular" data-testid="approval-count">
                        {r.approval.approved_count} of {r.approval.required_count}
                      </span>
                      {r.approved_by.length > 0 && (
                        <span className="block text-[11px] text-slate-500">
                          {r.approved_by.map((d) => d.email).join(", ")}
                        </span>
                      )}
                    </td>
                    <td className={`${td} whitespace-nowrap`}>
                      <div className="flex gap-1.5">
                        <Button
                          variant="primary"
                          disabled={!!blocker}
                          title={blocker ?? undefined}
                          onClick={() => open([r], "approve")}
                          data-testid="approve"
                        >
                          Approve
                        </Button>
                        <Button onClick={() => open([r], "reject")} data-testid="reject">
                          Reject
                        </Button>
                      </div>
                      {blocker && (
                        <span
                          className="mt-0.5 block max-w-56 whitespace-normal text-[11px] text-amber-800"
                          data-testid="four-eyes"
                        >
                          {blocker}
                        </span>
                      )}
                      <RowResultText result={results[id]} />
                    </td>
                  </tr>
                  {isOpen && (
                    <DetailRow colSpan={9}>
                      <InstructionPreview row={r} />
                      {r.company_id === currentCompanyId && (
                        <Link
                          href={`/payments/${r.approval.object_id}`}
                          className="mt-2 inline-block text-[13px] text-sky-800 hover:underline"
                        >
                          Open the batch
                        </Link>
                      )}
                    </DetailRow>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </Table>
      )}
      <p className="mt-2 text-xs text-slate-500">Keys: j / k move · x select · a approve · r reject · ? help</p>
      {dialog && (
        <DecisionDialog
          rows={dialog.rows}
          decision={dialog.decision}
          onClose={() => setDialog(null)}
          onConfirm={async (reason) => {
            await decideMany(dialog.rows, dialog.decision, reason);
            setSelected(new Set());
          }}
        />
      )}
      <KeyboardHelp open={help} onOpenChange={setHelp} approveLabel="Approve" />
    </div>
  );
}
