"use client";

import dynamic from "next/dynamic";
import { useMemo, useState } from "react";
import { useForm, useWatch, type FieldErrors, type UseFormRegister } from "react-hook-form";
import { toast } from "@/components/ui/toast";
import { FileUp } from "lucide-react";
import { Amount } from "@/components/format/amount";
import { Button } from "@/components/ui/button";
import { isFinalRefusal } from "@/components/data/error-text";
import {
  batchResolver,
  emptyRow,
  runningTotal,
  toBody,
  type BatchFormValues,
  type InstructionRow,
} from "./batch-form-schema";
import { InstructionRows } from "./instruction-rows";
import { useSaveBatch } from "./use-save-batch";

// Opened on demand: the CSV import (papaparse) loads then, not on the first load.
const CsvImportDialog = dynamic(() => import("./csv-import-dialog").then((m) => m.CsvImportDialog), { ssr: false });

const EMPTY = (r: InstructionRow) => !r.amount && !r.creditor_name && !r.creditor_iban && !r.end_to_end_id;
const FIELD = "h-8 rounded-md border border-slate-300 bg-white px-2 text-[13px] text-slate-900";

/**
 * The new-batch editor. Validation is live and uses the contract schema; the
 * running total is exact (decimal strings). Saving keeps one Idempotency-Key
 * per batch across retries (`useSaveBatch`), and the server's field errors
 * are put on the cells they name. CSV rows are added after the filled rows.
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
  const [importing, setImporting] = useState(false);
  const { save, submit } = useSaveBatch(setError);
  const onSubmit = handleSubmit((values) => submit(toBody(values)));

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

  const listError = formState.errors.instructions?.root?.message || formState.errors.instructions?.message;
  return (
    <form onSubmit={onSubmit} noValidate aria-label="New payment batch">
      <BatchHeaderFields
        companyName={companyName}
        currencies={currencies}
        today={today}
        register={register}
        errors={formState.errors}
        rows={rows ?? []}
        currency={currency}
      />
      <InstructionRows control={control} register={register} errors={formState.errors} currency={currency} />
      {listError ? (
        <p role="alert" className="mt-2 text-[13px] text-red-700">
          Instructions {listError}
        </p>
      ) : null}
      <SaveBar save={save} onImport={() => setImporting(true)} />
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

/** Company, currency and execution date of the batch, with the live count and exact running total. */
function BatchHeaderFields({
  companyName,
  currencies,
  today,
  register,
  errors,
  rows,
  currency,
}: {
  companyName: string;
  currencies: string[];
  today: string;
  register: UseFormRegister<BatchFormValues>;
  errors: FieldErrors<BatchFormValues>;
  rows: InstructionRow[];
  currency: string;
}) {
  const totals = useMemo(() => runningTotal(rows, currency), [rows, currency]);
  const dateErr = errors.requested_execution_date?.message;
  return (
    <div className="mb-4 flex flex-wrap items-end gap-4 rounded-lg border border-slate-200 bg-white px-4 py-3">
      <div className="flex flex-col gap-1 text-xs font-medium text-slate-600">
        Company
        <span className="flex h-8 items-center text-[13px] text-slate-900">{companyName}</span>
      </div>
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
        Currency
        <select {...register("currency")} className={FIELD} data-testid="batch-currency">
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
          className={`${FIELD} ${dateErr ? "border-red-500" : ""}`}
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
  );
}

/** Import CSV on the left; on the right, why the last save failed and the Create batch button. */
function SaveBar({ save, onImport }: { save: ReturnType<typeof useSaveBatch>["save"]; onImport: () => void }) {
  return (
    <div className="mt-4 flex items-center justify-between gap-3">
      <Button onClick={onImport} data-testid="open-csv">
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
  );
}
