"use client";

import type { ApprovalQueueRow } from "@/lib/views/payments";
import { totalsByCurrency } from "@/lib/totals";
import { Amount } from "@/components/format/amount";
import { ReviewDecisionDialog, type DecisionCallbacks } from "@/components/review-queue/decision-dialog";
import type { Decision } from "./approval-decisions";

/**
 * Confirms an approval or a rejection of one or more requests:
 * states how many and the totals per currency; a rejection requires a
 * reason, which is sent upstream and kept in the audit log.
 */
export function DecisionDialog({
  rows,
  decision,
  ...callbacks
}: DecisionCallbacks & { rows: ApprovalQueueRow[]; decision: Decision }) {
  const totals = totalsByCurrency(
    rows.filter((r) => r.batch),
    (r) => r.batch?.currency ?? "",
    (r) => r.batch?.total_amount ?? "0",
  );
  const approve = decision === "approve";
  return (
    <ReviewDecisionDialog
      {...callbacks}
      verb={approve ? "Approve" : "Reject"}
      count={rows.length}
      noun={{ one: "this payment batch", many: "payment batches" }}
      rejecting={!approve}
      reasonOnReject="required"
      description={
        approve
          ? "Your approval counts once per request. The bank pays the batch when all required approvals are in."
          : "A rejected batch is not paid; its instructions are cancelled."
      }
      testId="decision-dialog"
      confirmTestId="confirm-decision"
    >
      <ul className="space-y-1 rounded-md border border-slate-200 bg-slate-50 px-4 py-3 text-[13px]">
        {totals.map((t) => (
          <li key={t.currency} className="flex justify-between gap-4">
            <span className="text-slate-600">Total {t.currency}</span>
            <Amount value={t.total} currency={t.currency} className="font-semibold" />
          </li>
        ))}
        <li className="flex justify-between gap-4">
          <span className="text-slate-600">Instructions</span>
          <span className="tabular">{rows.reduce((n, r) => n + (r.batch?.instruction_count ?? 0), 0)}</span>
        </li>
      </ul>
    </ReviewDecisionDialog>
  );
}
