"use client";

import { useRef } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import type { PaymentBatch } from "@treasury/contract";
import { batchLabel, batchReferenceOf } from "./batch-name";
import type { BatchView } from "@/lib/views/payments";
import { bffFetch } from "@/components/data/bff-fetch";
import { useOperationKey } from "@/components/data/operation-key";
import { Amount } from "@/components/format/amount";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { errorText, isFinalRefusal } from "@/components/data/error-text";
import { paymentQueries } from "./payment-queries";

/**
 * Submit for approval: a confirmation that states total, count
 * and currency. The Idempotency-Key is created when the dialog opens (this
 * component mounts with it) and reused on every retry, so a double click or
 * a retry after a failure submits once. The detail shows "waiting for
 * approval" at once and rolls back with a toast when the API refuses.
 */
export function SubmitBatchDialog({
  companyId,
  batch,
  onClose,
}: {
  companyId: string;
  batch: PaymentBatch;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const op = useOperationKey();
  const key = paymentQueries.view(companyId, batch.id).queryKey;
  // Two clicks arrive before the button re-renders as disabled: the second must not send a second request.
  const inFlight = useRef(false);
  const m = useMutation({
    mutationFn: () =>
      bffFetch<PaymentBatch>(`/api/treasury/payments/batches/${batch.id}/submit`, {
        method: "POST",
        idempotencyKey: op.key,
      }),
    onMutate: async () => {
      await qc.cancelQueries({ queryKey: key });
      const before = qc.getQueryData<BatchView>(key);
      if (before)
        qc.setQueryData<BatchView>(key, {
          ...before,
          may_submit: false,
          batch: { ...before.batch, status: "pending_approval" },
        });
      return { before };
    },
    onError: (err, _v, c) => {
      if (c?.before) qc.setQueryData(key, c.before);
      toast.error(errorText(err, "Submitting the batch"));
    },
    onSuccess: () => {
      toast.success("Batch submitted for approval.");
      onClose();
    },
    onSettled: () => {
      inFlight.current = false;
      return qc.invalidateQueries({ queryKey: paymentQueries.all() });
    },
  });
  // A refusal that a retry cannot change (e.g. 409: another tab submitted it already) offers Close only.
  const final = m.isError && isFinalRefusal(m.error);
  return (
    <Modal
      open
      onOpenChange={(o) => !o && !m.isPending && onClose()}
      title={`Submit ${batchReferenceOf(batch) ? `“${batchReferenceOf(batch)}”` : batchLabel(batch.id, null)} for approval?`}
      testId="submit-dialog"
      description="Once submitted, the batch can no longer be changed; approvers decide on it."
      footer={
        <>
          <Button onClick={onClose} disabled={m.isPending}>
            {final ? "Close" : "Cancel"}
          </Button>
          {!final && (
            <Button
              variant="primary"
              pending={m.isPending}
              onClick={() => {
                if (inFlight.current) return;
                inFlight.current = true;
                m.mutate();
              }}
              data-testid="confirm-submit"
            >
              {m.isPending ? "Submitting…" : m.isError ? "Try again" : "Submit for approval"}
            </Button>
          )}
        </>
      }
    >
      <dl
        className={
          "grid grid-cols-[auto_1fr] gap-x-6 gap-y-1.5 rounded-md " +
          "border border-slate-200 bg-slate-50 px-4 py-3 text-[13px]"
        }
      >
        <dt className="text-slate-600">Total</dt>
        <dd className="text-right font-semibold" data-testid="submit-total">
          <Amount value={batch.total_amount} currency={batch.currency} />
        </dd>
        <dt className="text-slate-600">Instructions</dt>
        <dd className="text-right tabular">{batch.instruction_count}</dd>
        <dt className="text-slate-600">Currency</dt>
        <dd className="text-right">{batch.currency}</dd>
      </dl>
      {m.isError && (
        <p role="alert" className="mt-3 text-[13px] text-red-700">
          {errorText(m.error, "Submitting the batch")}
          {final ? "" : " Trying again uses the same request, so the batch is submitted once."}
        </p>
      )}
    </Modal>
  );
}
