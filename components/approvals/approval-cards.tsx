"use client";

import Link from "next/link";
import { useState } from "react";
import { formatDistanceToNowStrict } from "date-fns";
import { ChevronDown, ChevronRight } from "lucide-react";
import type { ApprovalQueueRow } from "@/lib/views/payments";
import { Amount } from "@/components/format/amount";
import { Button } from "@/components/ui/button";
import { RowResultText, type RowResult } from "@/components/review-queue/row-result";
import { BatchName } from "@/components/payments/batch-name";
import { approveBlocker, batchReference, creatorLabel, queueBatchLabel, rejectVerb } from "./approval-queries";
import type { Decision } from "./approval-decisions";
import { InstructionPreview } from "./instruction-preview";
import { scrollRegionProps } from "@/components/ui/table";
import { RiskBadges, RiskSignalsOrRetry } from "./risk-signals";

/** Props of `ApprovalCards`: the queue's rows and its state (selection, results), as the table gets them. */
export interface ApprovalCardsProps {
  rows: readonly ApprovalQueueRow[];
  selected: ReadonlySet<string>;
  results: Record<string, RowResult | undefined>;
  currentCompanyId: string | null;
  onSelect: (approvalId: string) => void;
  onDecide: (row: ApprovalQueueRow, d: Decision) => void;
}

/**
 * The approval queue as a list of cards, for phones (the table shows from
 * `md` up): per batch its reference (or short id), company, total, risk signal
 * badges, approvals so far, and Approve / Reject as full-width buttons with
 * 44 px targets. "Details" opens the signals with their evidence and the first
 * instructions in place. Decisions go through the same dialog as the table's.
 */
export function ApprovalCards({ rows, selected, results, currentCompanyId, onSelect, onDecide }: ApprovalCardsProps) {
  return (
    <ul className="space-y-3" aria-label="Approval queue">
      {rows.map((r) => (
        <ApprovalCard
          key={r.approval.id}
          row={r}
          selected={selected.has(r.approval.id)}
          result={results[r.approval.id]}
          linkable={r.company_id === currentCompanyId}
          onSelect={() => onSelect(r.approval.id)}
          onDecide={(d) => onDecide(r, d)}
        />
      ))}
    </ul>
  );
}

function ApprovalCard({
  row: r,
  selected,
  result,
  linkable,
  onSelect,
  onDecide,
}: {
  row: ApprovalQueueRow;
  selected: boolean;
  result: RowResult | undefined;
  linkable: boolean;
  onSelect: () => void;
  onDecide: (d: Decision) => void;
}) {
  const [open, setOpen] = useState(false);
  const label = queueBatchLabel(r);
  const blocker = approveBlocker(r);
  const titleId = `approval-card-${r.approval.id}`;
  return (
    <li
      className="rounded-lg border border-slate-200 bg-white p-3"
      data-testid="approval-card"
      data-batch-id={r.approval.object_id}
      aria-labelledby={titleId}
    >
      <div className="flex items-start gap-3">
        <label className="-m-2.5 flex size-11 shrink-0 items-center justify-center">
          <input
            type="checkbox"
            className="size-5"
            aria-label={`Select ${label}`}
            checked={selected}
            onChange={onSelect}
          />
        </label>
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="text-sm font-semibold text-slate-900">
            <BatchName id={r.approval.object_id} reference={batchReference(r)} />
          </h2>
          <p className="text-[13px] text-slate-600">
            {r.company_name} ·{" "}
            <span suppressHydrationWarning>{formatDistanceToNowStrict(new Date(r.approval.created_at))} ago</span>
          </p>
        </div>
        <div className="shrink-0 text-right">
          {r.batch ? (
            <Amount value={r.batch.total_amount} currency={r.batch.currency} className="text-sm font-semibold" />
          ) : (
            "—"
          )}
          <p className="text-xs text-slate-600">
            {r.batch?.instruction_count ?? "—"} {r.batch?.instruction_count === 1 ? "instruction" : "instructions"}
          </p>
        </div>
      </div>
      <div className="mt-2">
        <RiskBadges risk={r.risk} />
      </div>
      <p className="mt-2 text-[13px] text-slate-700">
        Approvals{" "}
        <span className="tabular font-medium" data-testid="approval-count">
          {r.approval.approved_count} of {r.approval.required_count}
        </span>
        {r.approved_by.length > 0 && (
          <span className="text-slate-600"> · {r.approved_by.map((d) => d.name ?? d.email).join(", ")}</span>
        )}
        {" · "}
        {creatorLabel(r) ? `created by ${creatorLabel(r)}` : "creator unknown"}
        {r.policy && (
          <span className="block text-xs text-slate-500" data-testid="approval-policy">
            {r.policy.explanation}
          </span>
        )}
      </p>
      <button
        type="button"
        className="-mx-1 mt-1 inline-flex min-h-11 items-center gap-1 px-1 text-[13px] font-medium text-sky-800"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? <ChevronDown className="size-4" aria-hidden /> : <ChevronRight className="size-4" aria-hidden />}
        Details
      </button>
      {open && (
        <div className="mb-2 space-y-3">
          <section aria-label={`Risk signals of ${label}`}>
            <RiskSignalsOrRetry risk={r.risk} />
          </section>
          {/* The instruction table is wider than a phone: it scrolls in its own box. */}
          <div {...scrollRegionProps(`Instructions of ${label}`, { framed: false })}>
            <InstructionPreview row={r} />
          </div>
          {linkable && (
            <Link
              href={`/payments/${r.approval.object_id}`}
              className="inline-flex min-h-11 items-center text-[13px] text-sky-800 hover:underline"
            >
              Open the batch
            </Link>
          )}
        </div>
      )}
      <div className="mt-2 flex flex-col gap-2">
        {/* <Button>: disabled until hydration, so a tap never lands before the handler (docs/architecture.md). */}
        <Button
          variant="primary"
          className="min-h-11 w-full text-sm"
          disabled={!!blocker}
          onClick={() => onDecide("approve")}
          data-testid="approve"
        >
          Approve
        </Button>
        <Button className="min-h-11 w-full text-sm" onClick={() => onDecide("reject")} data-testid="reject">
          {rejectVerb(r)}
        </Button>
      </div>
      {blocker && (
        <p className="mt-1.5 text-xs text-amber-800" data-testid="card-four-eyes">
          {blocker}
        </p>
      )}
      <RowResultText result={result} />
    </li>
  );
}
