"use client";

import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import type { PaymentBatch } from "@treasury/contract";
import { callBff } from "@/components/data/bff-fetch";
import { paymentsEndpoints } from "@/lib/bff/areas/payments/endpoints";
import { errorText } from "@/components/data/error-text";
import { invalidatePayments } from "./payment-queries";
import { BatchConfirmDialog, batchTitleName, useBatchAction } from "./batch-confirm-dialog";

/**
 * Discard a batch not yet submitted: a confirmation naming the batch, its
 * total and count. One Idempotency-Key per dialog (retries discard once);
 * success returns to the payments list.
 */
export function DiscardBatchDialog({ batch, onClose }: { batch: PaymentBatch; onClose: () => void }) {
  const qc = useQueryClient();
  const router = useRouter();
  const write = useBatchAction(
    (idempotencyKey) => callBff(paymentsEndpoints.discard, { params: { id: batch.id }, idempotencyKey }),
    {
      onError: (err) => toast.error(errorText(err, "Discarding the batch")),
      onSuccess: () => {
        toast.success("Batch discarded.");
        void invalidatePayments(qc);
        router.push("/payments");
      },
    },
  );
  return (
    <BatchConfirmDialog
      batch={batch}
      write={write}
      onClose={onClose}
      title={`Discard ${batchTitleName(batch)}?`}
      testId="discard-dialog"
      description="The batch and its instructions are deleted. It was never submitted, so nothing was approved or paid."
      cancelLabel="Keep the batch"
      confirm={{
        variant: "danger",
        testId: "confirm-discard",
        label: "Discard batch",
        pendingLabel: "Discarding…",
        keepPending: true,
      }}
      action="Discarding the batch"
    />
  );
}
