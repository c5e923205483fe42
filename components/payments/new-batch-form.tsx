"use client";

import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { useMemo, useRef, useState } from "react";
import { useForm, useWatch, type Path } from "react-hook-form";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { FileUp } from "lucide-react";
import type { PaymentBatch } from "@/lib/contract";
import { bffFetch, BffRequestError } from "@/components/data/bff-fetch";
import { Amount } from "@/components/format/amount";
import { Button } from "@/components/ui/button";
import { errorText, isFinalRefusal } from "@/components/review/error-text";
import {
  batchResolver,
  emptyRow,
  runningTotal,
  toBody,
  type BatchFormValues,
  type InstructionRow,
} from "./batch-form-schema";
import { InstructionRows } from "./instruction-rows";
import { paymentQueries } from "./payment-queries";

// Opened on demand: the CSV import (papaparse) loads then, not on the first load.
const CsvImportDialog = dynamic(() => import("./csv-import-dialog").then((m) => m.CsvImportDialog), { ssr: false });

const EMPTY = (r: InstructionRow) => !r.amount && !r.creditor_name && !r.creditor_iban && !r.end_to_end_id;

/**
 * The new-batch editor (issue 6 §1). Validation is live and uses the
 * contract schema; the running total is exact. One Idempotency-Key is
 * created when the form opens and kept while the same batch is retried; a
 * changed batch after a refusal is a new operation with a new key (the API
 * would refuse a key reused with another body). The server's field errors
 * are put on the cells they name.
 */
export function NewBatchForm({
  companyId,
  companyName,
  currencies,
  today,
}: {
  companyId: string;
  companyName: string;
  currencies: string[];
  today: string;
}) {
  const router = useRouter();
  const qc = useQueryClient();
  const first = currencies[0] ?? "NOK";
  const form = useForm<BatchFormValues>({
    resolver: batchResolver,
    mode: "onChange",
    defaultValues: {
      company_id: companyId,
      currency: first,
      requested_execution_date: today,
      instructions: [emptyRow(first)],
    },
  });
  const { register, control, handleSubmit, formState, setError, getValues, reset, trigger } = form;
  const currency = useWatch({ control, name: "currency" });
  const rows = useWatch({ control, name: "instructions" });
  const totals = useMemo(() => runningTotal(rows ?? [], currency), [rows, currency]);
  const [importing, setImporting] = useState(false);
  const op = useRef({ key: crypto.randomUUID(), body: "" as string, inFlight: false });

  const save = useMutation({
    mutationFn: (body: ReturnType<typeof toBody>) =>
      bffFetch<PaymentBatch>("/api/treasury/payments/batches", {
        method: "POST",
        body,
        idempotencyKey: op.current.key,
      }),
    onSuccess: (batch) => {
      toast.success(`Batch created: ${batch.instruction_count} instructions.`);
      void qc.invalidateQueries({ queryKey: paymentQueries.all() });
      router.push(`/payments/${batch.id}`);
    },
    onError: (err) => {
      const fieldErrors = err instanceof BffRequestError ? err.details.errors : undefined;
      if (fieldErrors && typeof fieldErrors === "object") {
        for (const [path, msgs] of Object.entries(fieldErrors as Record<string, string[]>)) {
          setError(path as Path<BatchFormValues>, {
            type: "server",
            message: Array.isArray(msgs) ? msgs.join("; ") : String(msgs),
          });
        }
      }
      toast.error(errorText(err, "Saving the batch"));
    },
    onSettled: () => {
      op.current.inFlight = false;
    },
  });

  const onSubmit = handleSubmit((values) => {
    // A double click submits once: the second click finds the first in flight.
    if (op.current.inFlight) return;
    const body = toBody(values);
    const json = JSON.stringify(body);
    if (op.current.body && op.current.body !== json) op.current.key = crypto.randomUUID();
    op.current.body = json;
    op.current.inFlight = true;
    save.mutate(body);
  });

  function importRows(imported: InstructionRow[]) {
    const kept = getValues("instructions").filter((r) => !EMPTY(r));
    reset(
      { ...getValues(), instructions: [...kept, ...imported.map((r) => ({ ...r, currency }))] },
      { keepDefaultValues: true },
    );
    void trigger();
    setImporting(false);
    toast.success(`${imported.length} instructions imported.`);
  }

  const field = "h-8 rounded-md border border-slate-300 bg-white px-2 text-[13px] text-slate-900";
  const dateErr = formState.errors.requested_execution_date?.message;
  return (
    <form onSubmit={onSubmit} noValidate aria-label="New payment batch">
      <div className="mb-4 flex flex-wrap items-end gap-4 rounded-lg border border-slate-200 bg-white px-4 py-3">
        <div className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Company
          <span className="flex h-8 items-center text-[13px] text-slate-900">{companyName}</span>
        </div>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Currency
          <select {...register("currency")} className={field} data-testid="batch-currency">
            {currencies.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Requested execution date
          <input
            type="date"
            {...register("requested_execution_date")}
            min={today}
            className={`${field} ${dateErr ? "border-red-500" : ""}`}
            aria-invalid={dateErr ? true : undefined}
          />
          {dateErr && <span className="text-[11px] font-normal text-red-700">{dateErr}</span>}
        </label>
        <div className="ml-auto text-right" aria-live="polite" data-testid="running-total">
          <div className="text-xs text-slate-500">
            {totals.count} instruction{totals.count === 1 ? "" : "s"}
            {totals.invalid ? ` · ${totals.invalid} without a valid amount` : ""}
          </div>
          <div className="text-base font-semibold">
            <Amount value={totals.total} currency={currency} />
          </div>
        </div>
      </div>
      <InstructionRows control={control} register={register} errors={formState.errors} currency={currency} />
      {formState.errors.instructions?.root?.message || formState.errors.instructions?.message ? (
        <p role="alert" className="mt-2 text-[13px] text-red-700">
          Instructions {formState.errors.instructions?.root?.message ?? formState.errors.instructions?.message}
        </p>
      ) : null}
      <div className="mt-4 flex items-center justify-between gap-3">
        <Button onClick={() => setImporting(true)} data-testid="open-csv">
          <FileUp className="size-4" aria-hidden /> Import CSV…
        </Button>
        <div className="flex items-center gap-3">
          {save.isError && (
            <span className="text-[13px] text-red-700">
              {isFinalRefusal(save.error)
                ? "Not saved. Correct the marked fields, then save again."
                : "Not saved. Saving again sends the same request for the same batch."}
            </span>
          )}
          <Button type="submit" variant="primary" pending={save.isPending || save.isSuccess} data-testid="save-batch">
            {save.isPending ? "Saving…" : "Create batch"}
          </Button>
        </div>
      </div>
      {importing && (
        <CsvImportDialog
          currency={currency}
          takenIds={new Set((rows ?? []).map((r) => r.end_to_end_id).filter(Boolean))}
          onImport={importRows}
          onClose={() => setImporting(false)}
        />
      )}
    </form>
  );
}
