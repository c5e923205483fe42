"use client";

import { useState, type ReactNode } from "react";
import type { ApprovalQueueRow } from "@/lib/views/payments";
import type { RiskSignalCode } from "@/lib/payments/risk-signals";
import { totalsByCurrency } from "@/lib/totals";
import { Amount } from "@/components/format/amount";
import { BatchName } from "@/components/payments/batch-name";
import { BusinessDate, Timestamp } from "@/components/format/business-date";
import { ReviewDecisionDialog } from "@/components/review-queue/decision-dialog";
import type { Decision } from "./approval-decisions";
import { batchReference, creatorLabel } from "./approval-queries";
import { RiskBadges, RiskSignalList, SIGNAL_LABEL } from "./risk-signals";

const referenceOf = batchReference;

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-right text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** "1 of 2: approved by Anna Approver at 07:16, …" in the viewer's zone. */
function ApprovalsSoFar({ row }: { row: ApprovalQueueRow }) {
  const a = row.approval;
  return (
    <span>
      {a.approved_count} of {a.required_count}
      {row.approved_by.map((d, i) => (
        <span key={`${d.email}${d.at}`}>
          {i === 0 ? ": " : "; "}approved by {d.name ?? d.email} at <Timestamp value={d.at} />
        </span>
      ))}
      {row.policy && (
        <span className="block text-xs text-slate-500" data-testid="dialog-policy">
          Policy: {row.policy.explanation}
          {row.policy.held > 0
            ? ` (${row.policy.held} approval${row.policy.held === 1 ? "" : "s"} held by the dashboard until the count is met)`
            : ""}
        </span>
      )}
    </span>
  );
}

/** Everything one batch's decision is about: what, whose, from where, when, how much, and its risks. */
function OneBatch({ row }: { row: ApprovalQueueRow }) {
  const b = row.batch;
  const ref = referenceOf(row);
  const debtor = row.risk?.debtor_account ?? null;
  return (
    <div className="space-y-3">
      <dl className="space-y-1 rounded-md border border-slate-200 bg-slate-50 px-4 py-3 text-[13px]">
        <Fact label="Batch" testId="dialog-batch">
          <BatchName id={row.approval.object_id} reference={ref} />
        </Fact>
        <Fact label="Company" testId="dialog-company">
          {row.company_name}
        </Fact>
        <Fact label="Debtor account" testId="dialog-debtor">
          {debtor ? (
            <>
              {debtor.name}
              {debtor.available_balance !== null && (
                <span className="block text-xs text-slate-500">
                  available <Amount value={debtor.available_balance} currency={debtor.currency} />
                </span>
              )}
            </>
          ) : (
            "—"
          )}
        </Fact>
        <Fact label="Execution date" testId="dialog-execution-date">
          {b?.requested_execution_date ? <BusinessDate date={b.requested_execution_date} /> : "as soon as possible"}
        </Fact>
        <Fact label={`Total ${b?.currency ?? ""}`.trim()} testId="dialog-total">
          {b ? <Amount value={b.total_amount} currency={b.currency} className="font-semibold" /> : "—"}
        </Fact>
        <Fact label="Instructions" testId="dialog-count">
          <span className="tabular">{b?.instruction_count ?? "—"}</span>
        </Fact>
        <Fact label="Approvals so far" testId="dialog-approvals">
          <ApprovalsSoFar row={row} />
        </Fact>
        <Fact label="Created by" testId="dialog-created-by">
          {creatorLabel(row) ?? "unknown"}
        </Fact>
      </dl>
      <section aria-label="Risk signals">
        <h3 className="mb-1 text-xs font-semibold text-slate-700">Risk signals</h3>
        {row.risk ? (
          <RiskSignalList risk={row.risk} />
        ) : (
          <p className="text-[13px] text-amber-800">The risk signals could not be computed.</p>
        )}
      </section>
    </div>
  );
}

/** Several batches at once (bulk): one line each, then the totals per currency and the instruction count. */
function ManyBatches({ rows }: { rows: ApprovalQueueRow[] }) {
  const totals = totalsByCurrency(
    rows.filter((r) => r.batch),
    (r) => r.batch?.currency ?? "",
    (r) => r.batch?.total_amount ?? "0",
  );
  return (
    <div className="space-y-3 text-[13px]">
      <ul className="divide-y divide-slate-100 rounded-md border border-slate-200" data-testid="dialog-batches">
        {rows.map((r) => (
          <li key={r.approval.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-1.5">
            <span>
              <BatchName id={r.approval.object_id} reference={referenceOf(r)} /> · {r.company_name} ·{" "}
              {r.approval.approved_count} of {r.approval.required_count}
            </span>
            <span className="flex items-center gap-2">
              <RiskBadges risk={r.risk} />
              {r.batch && <Amount value={r.batch.total_amount} currency={r.batch.currency} />}
            </span>
          </li>
        ))}
      </ul>
      <dl className="space-y-1 rounded-md border border-slate-200 bg-slate-50 px-4 py-3">
        {totals.map((t) => (
          <Fact key={t.currency} label={`Total ${t.currency}`} testId={`dialog-total-${t.currency}`}>
            <Amount value={t.total} currency={t.currency} className="font-semibold" />
          </Fact>
        ))}
        <Fact label="Instructions" testId="dialog-count">
          <span className="tabular">{rows.reduce((n, r) => n + (r.batch?.instruction_count ?? 0), 0)}</span>
        </Fact>
      </dl>
    </div>
  );
}

/** The high-risk codes of a row that an approval must acknowledge. */
export function acknowledgementsNeeded(row: ApprovalQueueRow): RiskSignalCode[] {
  return row.risk?.requires_acknowledgement ?? [];
}

/**
 * Confirms an approval or a rejection of one or more requests. One batch:
 * it is named (reference, short id), with its company, debtor account,
 * execution date, total, instruction count, approvals so far and risk
 * signals; approving it needs a tick per high-risk signal, and the ticked
 * codes go with the approval (the server refuses it otherwise and logs
 * them). Several batches (bulk): one line each and the totals; the queue
 * leaves batches with high-risk signals out of a bulk approval. A rejection
 * requires a reason, sent upstream and kept in the audit log.
 */
export function DecisionDialog({
  rows,
  decision,
  onConfirm,
  onClose,
}: {
  rows: ApprovalQueueRow[];
  decision: Decision;
  onConfirm: (reason?: string, extra?: Record<string, unknown>, headers?: Record<string, string>) => Promise<unknown>;
  onClose: () => void;
}) {
  const approve = decision === "approve";
  // The creator turning down their own batch(es) withdraws them.
  const withdraw = !approve && rows.length > 0 && rows.every((r) => r.created_by_me);
  const single = rows.length === 1 ? rows[0] : undefined;
  const needed = approve && single ? acknowledgementsNeeded(single) : [];
  const [ticked, setTicked] = useState<ReadonlySet<RiskSignalCode>>(new Set());
  const missing = needed.filter((c) => !ticked.has(c));
  return (
    <ReviewDecisionDialog
      onClose={onClose}
      onConfirm={(reason, headers) =>
        onConfirm(reason, needed.length ? { acknowledged_signals: needed } : undefined, headers)
      }
      stepUp={{ action: "approval.decide", subjects: rows.map((r) => r.approval.id) }}
      verb={approve ? "Approve" : withdraw ? "Withdraw" : "Reject"}
      count={rows.length}
      noun={{ one: "this payment batch", many: "payment batches" }}
      rejecting={!approve}
      reasonOnReject="required"
      description={
        approve
          ? "Your approval is counted once, however often you approve. The bank pays the batch when all required approvals are in."
          : withdraw
            ? "A withdrawn batch is not paid; its instructions are cancelled. Create a new batch if the payments are still needed."
            : "A rejected batch is not paid; its instructions are cancelled."
      }
      testId="decision-dialog"
      confirmTestId="confirm-decision"
      confirmBlocked={missing.length > 0}
      wide={!!single}
      footerLead={
        needed.length > 0 && (
          <fieldset
            className="mb-2 max-h-40 space-y-1.5 overflow-y-auto rounded-md border border-red-200 bg-red-50 px-3 py-2"
            data-testid="acknowledgements"
          >
            <legend className="px-1 text-xs font-semibold text-red-800">
              Acknowledge each high-risk signal to approve (kept in the audit log)
            </legend>
            {needed.map((code) => (
              <label key={code} className="flex items-start gap-2 text-[13px] text-red-900">
                <input
                  type="checkbox"
                  className="mt-0.5"
                  checked={ticked.has(code)}
                  onChange={(e) =>
                    setTicked((s) => {
                      const next = new Set(s);
                      if (e.target.checked) next.add(code);
                      else next.delete(code);
                      return next;
                    })
                  }
                  data-testid={`ack-${code}`}
                />
                <span>I have checked “{SIGNAL_LABEL[code]}” and approve regardless.</span>
              </label>
            ))}
          </fieldset>
        )
      }
    >
      {single ? <OneBatch row={single} /> : <ManyBatches rows={rows} />}
    </ReviewDecisionDialog>
  );
}
