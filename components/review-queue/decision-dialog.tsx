"use client";

import { useId, useState, type ReactNode } from "react";
import { Modal } from "@/components/ui/dialog";
import { confirmWithPasskey, StepUpError, useStepUpStatus, type StepUpScope } from "@/components/auth/step-up";
import { StepUpHint, StepUpProblem } from "@/components/auth/step-up-notice";
import { DialogFooter } from "@/components/ui/dialog-footer";

/** Whether a decision asks for a reason: approvals' rejection requires one, a match rejection offers one. */
export type ReasonMode = "required" | "optional" | "none";

/** Shortest reason accepted where one is required (a word, not a stray key). */
export const REASON_MIN = 3;
/** Longest reason (the BFF's `DecisionBody` limit). */
export const REASON_MAX = 500;

/** True when `reason` may be sent under `mode`. */
export function reasonAccepted(reason: string, mode: ReasonMode): boolean {
  return mode !== "required" || reason.trim().length >= REASON_MIN;
}

/** What the approval queue and the reconciliation review pass on from their row hooks. */
export interface DecisionCallbacks {
  /**
   * Runs the decision; `reason` is the trimmed text, or undefined when none was given; `headers` carry the passkey
   * step-up proof (send them with every decision of this dialog).
   */
  onConfirm: (reason?: string, headers?: Record<string, string>) => Promise<unknown>;
  onClose: () => void;
}

/**
 * The confirmation of a review decision, shared by the
 * approval queue and the reconciliation review: "Approve this payment
 * batch?" / "Reject 3 matches?", what is decided (`children`), on a
 * rejection a reason (`reasonOnReject`) — sent with the decision and kept in
 * the dashboard's audit log — and Cancel / confirm. While the decision runs
 * the dialog cannot be closed; it closes when `onConfirm` settles (the rows
 * show their own results).
 */
export function ReviewDecisionDialog({
  verb,
  count,
  noun,
  rejecting,
  reasonOnReject,
  description,
  onConfirm,
  onClose,
  testId,
  confirmTestId,
  confirmBlocked = false,
  wide = false,
  stepUp,
  footerLead,
  children,
}: DecisionCallbacks & {
  /** "Approve", "Reject", "Confirm". */
  verb: string;
  /** Rows decided at once. */
  count: number;
  /** e.g. `{ one: "this match", many: "matches" }`. */
  noun: { one: string; many: string };
  rejecting: boolean;
  reasonOnReject: "required" | "optional";
  description: string;
  testId: string;
  confirmTestId: string;
  /** True while something in `children` must still be done first (e.g. an acknowledgement ticked). */
  confirmBlocked?: boolean;
  /** A wider dialog, for a decision that shows a lot (a batch with its risk signals). */
  wide?: boolean;
  /**
   * The decision needs a passkey step-up covering this scope (when the user's step-up status says so): confirming
   * first runs the browser's passkey prompt, then the decision with the proof. A cancelled or failed prompt keeps the
   * dialog open with the reason.
   */
  stepUp?: StepUpScope;
  /** Shown in the sticky footer above the buttons (what the confirm button waits for, e.g. acknowledgements). */
  footerLead?: ReactNode;
  children?: ReactNode;
}) {
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const hintId = useId();
  const mode: ReasonMode = rejecting ? reasonOnReject : "none";
  const ok = reasonAccepted(reason, mode);
  const status = useStepUpStatus(!!stepUp);
  const [stepUpError, setStepUpError] = useState<StepUpError | null>(null);
  async function go() {
    setBusy(true);
    setStepUpError(null);
    let headers: Record<string, string> | undefined;
    if (stepUp) {
      try {
        headers = await confirmWithPasskey(stepUp, status.data);
      } catch (err) {
        setBusy(false);
        setStepUpError(err instanceof StepUpError ? err : new StepUpError("failed", String(err)));
        return;
      }
    }
    try {
      await onConfirm(mode !== "none" && reason.trim() ? reason.trim() : undefined, headers);
    } finally {
      setBusy(false);
      onClose();
    }
  }
  return (
    <Modal
      open
      onOpenChange={(o) => !o && !busy && onClose()}
      title={`${verb} ${count === 1 ? noun.one : `${count} ${noun.many}`}?`}
      testId={testId}
      description={description}
      wide={wide}
      footerLead={footerLead}
      footer={
        <DialogFooter
          onCancel={onClose}
          pending={busy}
          variant={rejecting ? "danger" : "primary"}
          disabled={!ok || confirmBlocked}
          onAct={() => void go()}
          testId={confirmTestId}
        >
          {busy ? "Working…" : `${verb}${count === 1 ? "" : ` ${count}`}`}
        </DialogFooter>
      }
    >
      {children}
      {mode !== "none" && (
        <label className="mt-3 flex flex-col gap-1 text-xs font-medium text-slate-700">
          {mode === "required" ? "Reason (kept in the audit log)" : "Reason (optional, kept in the audit log)"}
          <textarea
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={REASON_MAX}
            rows={3}
            className="rounded-md border border-slate-300 px-2 py-1.5 text-[13px] font-normal"
            data-testid="reject-reason"
            aria-describedby={mode === "required" ? hintId : undefined}
            autoFocus
          />
          {mode === "required" && (
            <span id={hintId} className="font-normal text-slate-500">
              At least {REASON_MIN} characters.
            </span>
          )}
        </label>
      )}
      {stepUp && <StepUpHint status={status.data} />}
      <StepUpProblem error={stepUpError} />
    </Modal>
  );
}
