"use client";

import { useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import type { PaymentBatch } from "@treasury/contract";
import type { BatchView } from "@/lib/views/payments";
import { callBff } from "@/components/data/bff-fetch";
import { paymentsEndpoints } from "@/lib/bff/areas/payments/endpoints";
import { errorText } from "@/components/data/error-text";
import { invalidatePayments, paymentQueries } from "./payment-queries";
import { BatchConfirmDialog, batchTitleName, useBatchAction } from "./batch-confirm-dialog";

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
  const key = paymentQueries.view(companyId, batch.id).queryKey;
  // Two clicks arrive before the button re-renders as disabled: the second must not send a second request.
  const write = useBatchAction(
    (idempotencyKey) => callBff(paymentsEndpoints.submit, { params: { id: batch.id }, idempotencyKey }),
    {
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
      onSettled: () => invalidatePayments(qc),
    },
  );
  return (
    <BatchConfirmDialog
      batch={batch}
      write={write}
      onClose={onClose}
      title={`Submit ${batchTitleName(batch)} for approval?`}
      testId="submit-dialog"
      description="Once submitted, the batch can no longer be changed; approvers decide on it."
      cancelLabel="Cancel"
      confirm={{
        variant: "primary",
        testId: "confirm-submit",
        label: "Submit for approval",
        pendingLabel: "Submitting…",
      }}
      action="Submitting the batch"
      retryNote=" Trying again uses the same request, so the batch is submitted once."
      totalTestId="submit-total"
      extraRows={
        <>
          <dt className="text-slate-600">Currency</dt>
          <dd className="text-right">{batch.currency}</dd>
        </>
      }
    />
  );
}
