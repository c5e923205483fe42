"use client";

import Link from "next/link";
import { Fragment } from "react";
import { formatDistanceToNowStrict } from "date-fns";
import { ChevronDown, ChevronRight } from "lucide-react";
import type { ApprovalQueueRow } from "@/lib/views/payments";
import { Amount } from "@/components/format/amount";
import { Button } from "@/components/ui/button";
import { DetailRow } from "@/components/ui/table";
import { ACTIVE_ROW } from "@/components/review-queue/keyboard-help";
import { RowResultText, type RowResult } from "@/components/review-queue/row-result";
import { SelectCell } from "@/components/review-queue/select-cell";
import { BatchName } from "@/components/payments/batch-name";
import { approveBlocker, batchReference, creatorLabel, queueBatchLabel, rejectVerb } from "./approval-queries";
import type { Decision } from "./approval-decisions";
import { InstructionPreview } from "./instruction-preview";
import { RiskBadges, RiskSignalsOrRetry } from "./risk-signals";

const td = "border-b border-slate-100 px-3 py-1.5 align-top";

/** Columns of a queue row, for the expanded detail row's span. */
export const APPROVAL_COLUMNS = 9;

export interface ApprovalRowProps {
  row: ApprovalQueueRow;
  index: number;
  active: boolean;
  selected: boolean;
  expanded: boolean;
  result: RowResult | undefined;
  /** The batch links to its page only in the company the user has selected. */
  linkable: boolean;
  onActivate: () => void;
  onSelect: () => void;
  onExpand: () => void;
  onDecide: (d: Decision) => void;
}

/** One request of the approval queue, with its instructions below it when expanded. */
export function ApprovalRow(p: ApprovalRowProps) {
  const r = p.row;
  const label = queueBatchLabel(r);
  return (
    <Fragment>
      <tr
        data-row-index={p.index}
        data-testid="approval-row"
        data-batch-id={r.approval.object_id}
        tabIndex={-1}
        aria-selected={p.selected}
        onClick={p.onActivate}
        className={`${p.active ? ACTIVE_ROW : ""} outline-none`}
      >
        <SelectCell className={td} label={`Select ${label}`} checked={p.selected} onToggle={p.onSelect} />
        <td className={td}>{r.company_name}</td>
        <td className={td}>
          <button
            type="button"
            className="inline-flex items-center gap-1 text-left text-sky-800"
            aria-expanded={p.expanded}
            onClick={p.onExpand}
          >
            {p.expanded ? (
              <ChevronDown className="size-3.5" aria-hidden />
            ) : (
              <ChevronRight className="size-3.5" aria-hidden />
            )}
            <BatchName id={r.approval.object_id} reference={batchReference(r)} />
          </button>
          <span className="mt-1 block">
            <RiskBadges risk={r.risk} />
          </span>
        </td>
        <td className={td}>{creatorLabel(r) ?? <span className="text-slate-500">unknown</span>}</td>
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
            <span className="block text-xs text-slate-500">
              {r.approved_by.map((d) => d.name ?? d.email).join(", ")}
            </span>
          )}
          {r.policy && (
            <span className="block max-w-64 text-xs text-slate-500" data-testid="approval-policy">
              {r.policy.explanation}
            </span>
          )}
        </td>
        <DecisionCell row={r} result={p.result} onDecide={p.onDecide} />
      </tr>
      {p.expanded && (
        <DetailRow colSpan={APPROVAL_COLUMNS}>
          <section aria-label={`Risk signals of ${label}`} className="mb-3 max-w-3xl">
            <h3 className="mb-1 text-xs font-semibold text-slate-700">Risk signals</h3>
            <RiskSignalsOrRetry risk={r.risk} />
          </section>
          <InstructionPreview row={r} />
          {p.linkable && (
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
}

/** Approve and Reject (Withdraw on one's own batch), the four-eyes reason when the user may not approve, and the row's last result. */
function DecisionCell({
  row,
  result,
  onDecide,
}: {
  row: ApprovalQueueRow;
  result: RowResult | undefined;
  onDecide: (d: Decision) => void;
}) {
  const blocker = approveBlocker(row);
  return (
    <td className={`${td} whitespace-nowrap`}>
      <div className="flex gap-1.5">
        <Button
          variant="primary"
          disabled={!!blocker}
          title={blocker ?? undefined}
          onClick={() => onDecide("approve")}
          data-testid="approve"
        >
          Approve
        </Button>
        <Button onClick={() => onDecide("reject")} data-testid="reject">
          {rejectVerb(row)}
        </Button>
      </div>
      {blocker && (
        <span className="mt-0.5 block max-w-56 whitespace-normal text-xs text-amber-800" data-testid="four-eyes">
          {blocker}
        </span>
      )}
      <RowResultText result={result} />
    </td>
  );
}
