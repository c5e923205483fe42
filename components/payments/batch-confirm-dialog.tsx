"use client";

import { useRef, type ReactNode, type RefObject } from "react";
import { useMutation, type UseMutationOptions } from "@tanstack/react-query";
import type { PaymentBatch } from "@treasury/contract";
import { Amount } from "@/components/format/amount";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { errorText, isFinalRefusal } from "@/components/data/error-text";
import { useOperationKey } from "@/components/data/operation-key";
import { batchLabel, batchReferenceOf } from "./batch-name";

/** The state of the dialog's one mutation (a React Query `useMutation` result). */
interface ConfirmMutation {
  isPending: boolean;
  isError: boolean;
  isSuccess: boolean;
  error: unknown;
  mutate: () => void;
}

/** The dialog's one write and the guard against a second click (`useBatchAction`). */
export interface BatchAction {
  m: ConfirmMutation;
  inFlight: RefObject<boolean>;
}

/**
 * The one write of a batch confirmation dialog: `send(idempotencyKey)` under one Idempotency-Key for the dialog's
 * life (a retry sends the same request, so the write happens once), with the mutation's own callbacks in `options`.
 * The guard a confirm click sets (`inFlight`) is cleared when the write settles, before `options.onSettled` runs.
 */
export function useBatchAction<TContext = unknown>(
  send: (idempotencyKey: string) => Promise<unknown>,
  options: Omit<UseMutationOptions<unknown, Error, void, TContext>, "mutationFn">,
): BatchAction {
  const op = useOperationKey();
  const inFlight = useRef(false);
  const m = useMutation<unknown, Error, void, TContext>({
    ...options,
    mutationFn: () => send(op.key),
    onSettled: (...args) => {
      inFlight.current = false;
      return options.onSettled?.(...args);
    },
  });
  return { m, inFlight };
}

/** The batch's name in a dialog title: “reference” in quotes, else its short label. */
export function batchTitleName(batch: PaymentBatch): string {
  const ref = batchReferenceOf(batch);
  return ref ? `“${ref}”` : batchLabel(batch.id, null);
}

/**
 * The confirmation shell of a batch action (submit, discard): title, description, the batch's total and count (and
 * `extraRows`), the error of a failed try, and Cancel / confirm buttons. A refusal a retry cannot change
 * (`isFinalRefusal`) leaves Close only. `inFlight` keeps a second click that arrives before the re-render from
 * sending a second request; the mutation's `onSettled` clears it.
 */
export function BatchConfirmDialog(p: {
  batch: PaymentBatch;
  title: string;
  testId: string;
  description: string;
  write: BatchAction;
  onClose: () => void;
  cancelLabel: string;
  confirm: {
    variant: "primary" | "danger";
    testId: string;
    label: string;
    pendingLabel: string;
    keepPending?: boolean;
  };
  /** What the error names ("Submitting the batch"), and the sentence added when a retry is possible. */
  action: string;
  retryNote?: string;
  totalTestId?: string;
  extraRows?: ReactNode;
}) {
  const { batch } = p;
  const { m, inFlight } = p.write;
  const final = m.isError && isFinalRefusal(m.error);
  return (
    <Modal
      open
      onOpenChange={(o) => !o && !m.isPending && p.onClose()}
      title={p.title}
      testId={p.testId}
      description={p.description}
      footer={
        <>
          <Button onClick={p.onClose} disabled={m.isPending}>
            {final ? "Close" : p.cancelLabel}
          </Button>
          {!final && (
            <Button
              variant={p.confirm.variant}
              pending={m.isPending || (p.confirm.keepPending === true && m.isSuccess)}
              onClick={() => {
                if (inFlight.current) return;
                inFlight.current = true;
                m.mutate();
              }}
              data-testid={p.confirm.testId}
            >
              {m.isPending ? p.confirm.pendingLabel : m.isError ? "Try again" : p.confirm.label}
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
        <dd className="text-right font-semibold" data-testid={p.totalTestId}>
          <Amount value={batch.total_amount} currency={batch.currency} />
        </dd>
        <dt className="text-slate-600">Instructions</dt>
        <dd className="text-right tabular">{batch.instruction_count}</dd>
        {p.extraRows}
      </dl>
      {m.isError && (
        <p role="alert" className="mt-3 text-[13px] text-red-700">
          {errorText(m.error, p.action)}
          {final || !p.retryNote ? "" : p.retryNote}
        </p>
      )}
    </Modal>
  );
}
