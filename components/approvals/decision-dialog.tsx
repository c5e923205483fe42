"use client";

import { useState } from "react";
import type { ApprovalQueueRow } from "@/lib/bff/queries/payment-views";
import { totalsByCurrency } from "@/lib/totals";
import { Amount } from "@/components/format/amount";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import type { Decision } from "./use-decisions";

/**
 * Confirms an approval or a rejection of one or more requests (issue 6 §3):
 * states how many and the totals per currency; a rejection asks for a
 * reason, which is sent upstream and kept in the audit log.
 */
export function DecisionDialog({ rows, decision, onConfirm, onClose }: { rows: ApprovalQueueRow[]; decision: Decision; onConfirm: (reason?: string) => Promise<unknown>; onClose: () => void }) {
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const totals = totalsByCurrency(
    rows.filter((r) => r.batch),
    (r) => r.batch?.currency ?? "",
    (r) => r.batch?.total_amount ?? "0",
  );
  const approve = decision === "approve";
  const one = rows.length === 1;
  const reasonOk = approve || reason.trim().length >= 3;
  async function go() {
    setBusy(true);
    try {
      await onConfirm(approve ? undefined : reason.trim());
    } finally {
      setBusy(false);
      onClose();
    }
  }
  return (
    <Modal
      open
      onOpenChange={(o) => !o && !busy && onClose()}
      title={`${approve ? "Approve" : "Reject"} ${one ? "this payment batch" : `${rows.length} payment batches`}?`}
      testId="decision-dialog"
      description={approve ? "Your approval counts once per request. The bank pays the batch when all required approvals are in." : "A rejected batch is not paid; its instructions are cancelled."}
      footer={
        <>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button variant={approve ? "primary" : "danger"} pending={busy} disabled={!reasonOk} onClick={() => void go()} data-testid="confirm-decision">
            {busy ? "Working…" : approve ? `Approve${one ? "" : ` ${rows.length}`}` : `Reject${one ? "" : ` ${rows.length}`}`}
          </Button>
        </>
      }
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
      {!approve && (
        <label className="mt-3 flex flex-col gap-1 text-xs font-medium text-slate-700">
          Reason (kept in the audit log)
          <textarea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} rows={3} className="rounded-md border border-slate-300 px-2 py-1.5 text-[13px] font-normal" data-testid="reject-reason" autoFocus />
        </label>
      )}
    </Modal>
  );
}
