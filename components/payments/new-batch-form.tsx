"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { toast } from "@/components/ui/toast";
import { Info } from "lucide-react";
import { amountExample } from "@/lib/payments/amount-input";
import { newEndToEndId } from "@/lib/payments/end-to-end-id";
import { useLocale } from "@/components/format/use-locale";
import {
  batchResolver,
  emptyRow,
  toBody,
  type BatchFormContext,
  type BatchFormValues,
  type InstructionRow,
} from "./batch-form-schema";
import { InstructionRows } from "./instruction-rows";
import type { DebtorAccountOption, PayeeOption } from "@/lib/views/payment-run";
import { useSaveBatch } from "./use-save-batch";
import { Form } from "@/components/ui/form";
import { BatchHeaderFields } from "./batch-header-fields";
import { ErrorSummary } from "./error-summary";
import { SaveBar } from "./save-bar";

// Opened on demand: the CSV import (papaparse) loads then, not on the first load.
const CsvImportDialog = dynamic(() => import("./csv-import-dialog").then((m) => m.CsvImportDialog), { ssr: false });

// A row nobody typed in (its proposed end-to-end id does not count).
const EMPTY = (r: InstructionRow) => !r.amount && !r.creditor_name && !r.creditor_iban;

/**
 * The new-batch editor (also the editor of a created batch, `edit`).
 * Validation is live and uses the contract schema; the running total is
 * exact (decimal strings). Saving keeps one Idempotency-Key per batch across
 * retries (`useSaveBatch`), and the server's field errors are put on the
 * cells they name. CSV rows are added after the filled rows. The creditor
 * name is a typeahead over the company's counterparties; the batch name,
 * debtor account, BIC and remittance information are offered only when the
 * API advertises them (`support.fields`), and the form says so otherwise.
 */
export function NewBatchForm({
  companyId,
  companyName,
  currencies,
  today,
  accounts,
  payees,
  support,
  edit,
}: {
  companyId: string;
  companyName: string;
  currencies: string[];
  /** Today where the company is (`YYYY-MM-DD`): the earliest execution date. */
  today: string;
  accounts: DebtorAccountOption[];
  payees: PayeeOption[];
  support: { fields: boolean };
  /** Editing a created batch: its id and current values. */
  edit?: { batchId: string; values: BatchFormValues };
}) {
  const first = currencies[0] ?? "NOK";
  const runFields = support.fields;
  const locale = useLocale();
  const example = amountExample(locale);
  const form = useForm<BatchFormValues, BatchFormContext>({
    resolver: batchResolver,
    context: { runFields, amountExample: example },
    mode: "onChange",
    defaultValues: edit?.values ?? {
      company_id: companyId,
      currency: first,
      requested_execution_date: today,
      reference: "",
      debtor_account_id: accounts.find((a) => a.currency === first)?.id ?? "",
      instructions: [emptyRow(first)],
    },
  });
  const { register, control, handleSubmit, formState, setError, getValues, reset, trigger, setValue } = form;
  const currency = useWatch({ control, name: "currency" });
  const rows = useWatch({ control, name: "instructions" });
  const debtorId = useWatch({ control, name: "debtor_account_id" });
  const [importing, setImporting] = useState(false);
  const { save, submit } = useSaveBatch(setError, edit ? { batchId: edit.batchId } : undefined, runFields);
  // Which save button was pressed: "Create batch" or "Create and submit…" (then the batch page opens its submit
  // dialog). Enter in a field presses the first, "Create batch".
  const thenSubmit = useRef(false);
  const onSubmit = handleSubmit((values) => submit(toBody(values, runFields), thenSubmit.current));

  // Rows without an end-to-end id get one proposed (in the browser: random ids must not differ between the
  // server's render and the browser's); the person may overwrite it.
  useEffect(() => {
    const taken = new Set<string>();
    getValues("instructions").forEach((r, i) => {
      if (r.end_to_end_id) return;
      const id = newEndToEndId({ taken });
      taken.add(id);
      setValue(`instructions.${i}.end_to_end_id`, id);
    });
  }, [getValues, setValue]);

  // The debtor account follows the currency: the first account in the new currency when the chosen one is not in it.
  useEffect(() => {
    const chosen = accounts.find((a) => a.id === getValues("debtor_account_id"));
    if (!chosen || chosen.currency !== currency)
      setValue("debtor_account_id", accounts.find((a) => a.currency === currency)?.id ?? "");
  }, [currency, accounts, getValues, setValue]);

  function importRows(imported: InstructionRow[]) {
    const kept = getValues("instructions").filter((r) => !EMPTY(r));
    const taken = new Set([...kept, ...imported].map((r) => r.end_to_end_id).filter(Boolean));
    const withIds = imported.map((r) => {
      if (r.end_to_end_id) return r;
      const id = newEndToEndId({ taken });
      taken.add(id);
      return { ...r, end_to_end_id: id };
    });
    reset(
      {
        ...getValues(),
        instructions: [...kept, ...withIds.map((r) => ({ ...emptyRow(currency), ...r, currency }))],
      },
      { keepDefaultValues: true },
    );
    void trigger();
    setImporting(false);
    toast.success(`${imported.length} instructions imported.`);
  }

  const listError = formState.errors.instructions?.root?.message || formState.errors.instructions?.message;
  return (
    <Form onSubmit={onSubmit} noValidate aria-label={edit ? "Edit payment batch" : "New payment batch"}>
      {formState.submitCount > 0 && <ErrorSummary errors={formState.errors} />}
      <BatchHeaderFields
        companyName={companyName}
        currencies={currencies}
        today={today}
        register={register}
        control={control}
        errors={formState.errors}
        rows={rows ?? []}
        currency={currency}
        lockCurrency={Boolean(edit)}
        runFields={runFields}
        accounts={accounts.filter((a) => a.currency === currency)}
        debtor={accounts.find((a) => a.id === debtorId) ?? null}
      />
      {!runFields && <RunFieldsUnavailable />}
      <InstructionRows
        control={control}
        register={register}
        setValue={setValue}
        errors={formState.errors}
        currency={currency}
        payees={payees}
        runFields={runFields}
      />
      {listError ? (
        <p role="alert" className="mt-2 text-[13px] text-red-700">
          Instructions {listError}
        </p>
      ) : null}
      <SaveBar
        save={save}
        onImport={() => setImporting(true)}
        editing={Boolean(edit)}
        onPress={(then) => (thenSubmit.current = then)}
      />
      {importing && (
        <CsvImportDialog
          currency={currency}
          takenIds={new Set((rows ?? []).map((r) => r.end_to_end_id).filter(Boolean))}
          runFields={runFields}
          onImport={importRows}
          onClose={() => setImporting(false)}
        />
      )}
    </Form>
  );
}

/** Why the batch name, paying account, BIC and remittance fields are missing (the API does not advertise them). */
function RunFieldsUnavailable() {
  return (
    <p
      className={
        "mb-3 flex items-start gap-2 rounded-md border border-slate-200 bg-slate-50 " +
        "px-3 py-2 text-[13px] text-slate-700"
      }
      data-testid="run-fields-unavailable"
    >
      <Info className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden />
      <span>
        The connected Treasury API does not offer a batch name, a choice of paying account, BIC or remittance
        information (its OpenAPI document does not list them), so the form leaves them out. The bank pays from the
        company&apos;s first active account in the batch currency.
      </span>
    </p>
  );
}
