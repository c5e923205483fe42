"use client";

import { useRef } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import type { PaymentBatch } from "@treasury/contract";
import { bffFetch } from "@/components/data/bff-fetch";
import { useOperationKey } from "@/components/data/operation-key";
import { Amount } from "@/components/format/amount";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { errorText, isFinalRefusal } from "@/components/data/error-text";
import { paymentQueries } from "./payment-queries";
import { batchLabel, batchReferenceOf } from "./batch-name";

/**
 * Discard a batch not yet submitted: a confirmation naming the batch, its
 * total and count. One Idempotency-Key per dialog (retries discard once);
 * success returns to the payments list.
 */
export function DiscardBatchDialog({ batch, onClose }: { batch: PaymentBatch; onClose: () => void }) {
  const qc = useQueryClient();
  const router = useRouter();
  const op = useOperationKey();
  const inFlight = useRef(false);
  const m = useMutation({
    mutationFn: () =>
      bffFetch<null>(`/api/treasury/payments/batches/${batch.id}`, { method: "DELETE", idempotencyKey: op.key }),
    onError: (err) => toast.error(errorText(err, "Discarding the batch")),
    onSuccess: () => {
      toast.success("Batch discarded.");
      void qc.invalidateQueries({ queryKey: paymentQueries.all() });
      router.push("/payments");
    },
    onSettled: () => {
      inFlight.current = false;
    },
  });
  const final = m.isError && isFinalRefusal(m.error);
  const ref = batchReferenceOf(batch);
  const name = ref ? `“${ref}”` : batchLabel(batch.id, null);
  return (
    <Modal
      open
      onOpenChange={(o) => !o && !m.isPending && onClose()}
      title={`Discard ${name}?`}
      testId="discard-dialog"
      description="The batch and its instructions are deleted. It was never submitted, so nothing was approved or paid."
      footer={
        <>
          <Button onClick={onClose} disabled={m.isPending}>
            {final ? "Close" : "Keep the batch"}
          </Button>
          {!final && (
            <Button
              variant="danger"
              pending={m.isPending || m.isSuccess}
              onClick={() => {
                if (inFlight.current) return;
                inFlight.current = true;
                m.mutate();
              }}
              data-testid="confirm-discard"
            >
              {m.isPending ? "Discarding…" : m.isError ? "Try again" : "Discard batch"}
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
        <dd className="text-right font-semibold">
          <Amount value={batch.total_amount} currency={batch.currency} />
        </dd>
        <dt className="text-slate-600">Instructions</dt>
        <dd className="text-right tabular">{batch.instruction_count}</dd>
      </dl>
      {m.isError && (
        <p role="alert" className="mt-3 text-[13px] text-red-700">
          {errorText(m.error, "Discarding the batch")}
        </p>
      )}
    </Modal>
  );
}
