"use client";

import type { MatchReviewRow } from "@/lib/views/reconciliation";
import { ReviewDecisionDialog, type DecisionCallbacks } from "@/components/review-queue/decision-dialog";

export type MatchAction = "confirm" | "reject";

/**
 * Confirms a confirmation or a rejection of one or more proposed matches:
 * lists them with their scores; a rejection offers a reason
 * (optional: the spec's reject describes no body), which is sent with the
 * decision and kept in the audit log; the decided tab shows it.
 */
export function MatchDecisionDialog({
  rows,
  decision,
  ...callbacks
}: DecisionCallbacks & { rows: MatchReviewRow[]; decision: MatchAction }) {
  const confirm = decision === "confirm";
  return (
    <ReviewDecisionDialog
      {...callbacks}
      verb={confirm ? "Confirm" : "Reject"}
      count={rows.length}
      noun={{ one: "this match", many: "matches" }}
      rejecting={!confirm}
      reasonOnReject="optional"
      description={
        confirm
          ? "A confirmed match marks the payment as reconciled with the bank transaction."
          : "A rejected match is not proposed again for this pair."
      }
      testId="match-dialog"
      confirmTestId="confirm-match-decision"
    >
      <ul className="max-h-48 space-y-1 overflow-auto text-[13px] text-slate-700">
        {rows.map((r) => (
          <li key={r.match.id} className="flex justify-between gap-3">
            <span className="font-mono text-xs">{r.instruction?.end_to_end_id ?? r.match.id.slice(0, 8)}</span>
            <span>score {r.match.score}</span>
          </li>
        ))}
      </ul>
    </ReviewDecisionDialog>
  );
}
