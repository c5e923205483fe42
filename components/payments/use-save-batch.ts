"use client";

import { useRouter } from "next/navigation";
import { useRef } from "react";
import type { Path, UseFormSetError } from "react-hook-form";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { BffRequestError, callBff } from "@/components/data/bff-fetch";
import { paymentsEndpoints } from "@/lib/bff/areas/payments/endpoints";
import { errorText } from "@/components/data/error-text";
import { toast } from "@/components/ui/toast";
import type { PaymentBatchCreate } from "@treasury/contract";
import type { BatchFormValues } from "./batch-form-schema";
import { invalidatePayments } from "./payment-queries";

type BatchBody = PaymentBatchCreate;

/** The batch page's query parameter that opens its submit dialog at once (`?submit=1`, after "Create and submit"). */
export const SUBMIT_PARAM = "submit";

/** Editing an existing created batch instead of creating one: its id (PATCH /payments/batches/{id}). */
export interface EditTarget {
  batchId: string;
}

/** The PATCH body of an edit: company and currency stay; everything else is replaced. */
function editBody(body: BatchBody, runFields: boolean) {
  return {
    requested_execution_date: body.requested_execution_date ?? null,
    ...(runFields ? { reference: body.reference ?? null, debtor_account_id: body.debtor_account_id ?? null } : {}),
    instructions: body.instructions,
  };
}

/**
 * Puts the BFF's field errors (`details.errors`: `{ "instructions[3].remittance_information.text": ["…"] }`) on the
 * form's fields, messages joined with "; ". The form's values are the body, so the path the server names is the
 * field's path as it is: react-hook-form reads both the API's `instructions[1].creditor_iban` and the BFF's
 * `instructions.1.creditor_iban`. Anything but an object is ignored.
 */
export function putServerErrors(setError: UseFormSetError<BatchFormValues>, fieldErrors: unknown): void {
  if (!fieldErrors || typeof fieldErrors !== "object") return;
  for (const [path, msgs] of Object.entries(fieldErrors as Record<string, unknown>)) {
    setError(path as Path<BatchFormValues>, {
      type: "server",
      message: Array.isArray(msgs) ? msgs.join("; ") : String(msgs),
    });
  }
}

/**
 * Saving a new batch. One Idempotency-Key is created when the form opens and
 * kept while the same batch is retried; a changed batch after a refusal is a
 * new operation with a new key (the API would refuse a key reused with
 * another body). A double click saves once. The server's field errors are put
 * on the cells they name (`setError` with the server's path, unchanged); success opens the batch, with its
 * submit dialog open when `submit(body, true)` asked for it ("Create and
 * submit", `?submit=1`). With `edit` the batch is replaced in place (PATCH)
 * rather than created.
 * @returns the mutation (for its pending / error state) and `submit(body, thenSubmit?)`.
 */
export function useSaveBatch(setError: UseFormSetError<BatchFormValues>, edit?: EditTarget, runFields = false) {
  const router = useRouter();
  const qc = useQueryClient();
  const op = useRef({ key: crypto.randomUUID(), body: "" as string, inFlight: false, thenSubmit: false });

  const save = useMutation({
    mutationFn: (body: BatchBody) =>
      edit
        ? callBff(paymentsEndpoints.update, {
            params: { id: edit.batchId },
            body: editBody(body, runFields),
            idempotencyKey: op.current.key,
          })
        : callBff(paymentsEndpoints.create, { body, idempotencyKey: op.current.key }),
    onSuccess: (batch) => {
      toast.success(
        edit
          ? `Batch saved: ${batch.instruction_count} instructions.`
          : `Batch created: ${batch.instruction_count} instructions.`,
      );
      void invalidatePayments(qc);
      // "Create and submit": the batch page opens its submit dialog (components/payments/batch-detail.tsx).
      router.push(`/payments/${batch.id}${op.current.thenSubmit ? `?${SUBMIT_PARAM}=1` : ""}`);
    },
    onError: (err) => {
      if (err instanceof BffRequestError) putServerErrors(setError, err.details.errors);
      toast.error(errorText(err, "Saving the batch"));
    },
    onSettled: () => {
      op.current.inFlight = false;
    },
  });

  function submit(body: BatchBody, thenSubmit = false) {
    // A double click submits once: the second click finds the first in flight.
    if (op.current.inFlight) return;
    op.current.thenSubmit = thenSubmit;
    const json = JSON.stringify(body);
    if (op.current.body && op.current.body !== json) op.current.key = crypto.randomUUID();
    op.current.body = json;
    op.current.inFlight = true;
    save.mutate(body);
  }

  return { save, submit };
}
