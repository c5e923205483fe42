"use client";

import { useState } from "react";
import { toast } from "@/components/ui/toast";
import type { CounterpartyView } from "@/lib/views/counterparties";
import { errorText } from "@/components/data/error-text";
import { Modal } from "@/components/ui/dialog";
import { ReasonField } from "./field";
import { formatIban } from "./status-badge";
import { counterpartiesEndpoints } from "@/lib/bff/areas/counterparties/endpoints";
import { BodyWithHeaders, fieldErrors, useCounterpartyWrite } from "./use-counterparty-write";
import { confirmWithPasskey, StepUpError, useStepUpStatus } from "@/components/auth/step-up";
import { StepUpHint, StepUpProblem } from "@/components/auth/step-up-notice";
import { DialogFooter } from "@/components/ui/dialog-footer";

export type CounterpartyDecision = "verify" | "reject" | "disable";

const WORDS: Record<CounterpartyDecision, { title: string; button: string; done: string; placeholder: string }> = {
  verify: {
    title: "Verify",
    button: "Verify counterparty",
    done: "verified",
    placeholder: "e.g. Called back on the number in our contract; the account holder confirmed the IBAN",
  },
  reject: {
    title: "Reject",
    button: "Reject counterparty",
    done: "rejected",
    placeholder: "e.g. The supplier never sent this change; suspected fraud",
  },
  disable: {
    title: "Disable",
    button: "Disable counterparty",
    done: "disabled",
    placeholder: "e.g. Contract ended",
  },
};

/**
 * Verify, reject or disable one counterparty, with a required reason (kept in
 * its history and the audit log). The dialog shows the bank details being
 * decided on, so the checker reads what she confirms. The server refuses the
 * maker (403); its message is shown here.
 */
export function CounterpartyDecisionDialog({
  counterparty: c,
  decision,
  onClose,
}: {
  counterparty: CounterpartyView;
  decision: CounterpartyDecision;
  onClose: () => void;
}) {
  const [reason, setReason] = useState("");
  const w = WORDS[decision];
  const m = useCounterpartyWrite(counterpartiesEndpoints[decision], { id: c.id }, (out) => {
    toast.success(`${out.name} ${w.done}.`);
    onClose();
  });
  // Verifying and rejecting need a passkey step-up for this counterparty (disabling does not).
  const stepUp = decision !== "disable";
  const status = useStepUpStatus(stepUp);
  const [confirming, setConfirming] = useState(false);
  const [stepUpError, setStepUpError] = useState<StepUpError | null>(null);
  async function confirm() {
    setStepUpError(null);
    let headers: Record<string, string> = {};
    if (stepUp) {
      setConfirming(true);
      try {
        headers = await confirmWithPasskey({ action: "counterparty.verify", subjects: [c.id] }, status.data);
      } catch (err) {
        setStepUpError(err instanceof StepUpError ? err : new StepUpError("failed", String(err)));
        return;
      } finally {
        setConfirming(false);
      }
    }
    m.mutate(new BodyWithHeaders({ reason, expectedVersion: c.version }, headers));
  }
  const errs = fieldErrors(m.error);
  const general = m.error && !errs.reason ? errorText(m.error, `${w.title} of ${c.name}`) : null;
  return (
    <Modal
      open
      onOpenChange={(o) => !o && !m.isPending && !confirming && onClose()}
      title={`${w.title} ${c.name}?`}
      testId="counterparty-decision"
      description={
        decision === "disable"
          ? "A disabled counterparty can no longer be paid. This cannot be undone."
          : "Check the bank details against a source the requester does not control before you decide."
      }
      footer={
        <DialogFooter
          onCancel={onClose}
          pending={m.isPending || confirming}
          variant={decision === "verify" ? "primary" : "danger"}
          onAct={() => void confirm()}
          testId="confirm-counterparty-decision"
        >
          {w.button}
        </DialogFooter>
      }
    >
      <dl
        className={
          "mb-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md " +
          "border border-slate-200 bg-slate-50 px-4 py-3 text-[13px]"
        }
      >
        <dt className="text-slate-600">IBAN</dt>
        <dd className="break-all font-mono text-xs">{formatIban(c.iban)}</dd>
        <dt className="text-slate-600">BIC</dt>
        <dd className="font-mono text-xs">{c.bic ?? "—"}</dd>
        <dt className="text-slate-600">Country</dt>
        <dd>{c.country}</dd>
      </dl>
      <ReasonField value={reason} onChange={setReason} error={errs.reason} placeholder={w.placeholder} />
      {stepUp && <StepUpHint status={status.data} />}
      <StepUpProblem error={stepUpError} />
      {general && (
        <p role="alert" className="mt-3 text-[13px] text-red-700" data-testid="decision-error">
          {general}
        </p>
      )}
    </Modal>
  );
}
