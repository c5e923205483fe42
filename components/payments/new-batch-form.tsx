"use client";

import dynamic from "next/dynamic";
import { useEffect, useMemo, useRef, useState } from "react";
import { Controller, useForm, useWatch, type Control, type FieldErrors, type UseFormRegister } from "react-hook-form";
import { DateField } from "@/components/ui/date-field";
import { toast } from "@/components/ui/toast";
import { FileUp, Info, Send } from "lucide-react";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import { Button } from "@/components/ui/button";
import { isFinalRefusal } from "@/components/data/error-text";
import { amountExample } from "@/lib/payments/amount-input";
import { newEndToEndId } from "@/lib/payments/end-to-end-id";
import { useLocale } from "@/components/format/use-locale";
import {
  batchResolver,
  cellMessage,
  emptyRow,
  runningTotal,
  toBody,
  type BatchFormContext,
  type BatchFormValues,
  type InstructionRow,
} from "./batch-form-schema";
import { InstructionRows } from "./instruction-rows";
import type { DebtorAccountOption, PayeeOption } from "@/lib/views/payment-run";
import { useSaveBatch } from "./use-save-batch";
import { Form } from "@/components/ui/form";

// Opened on demand: the CSV import (papaparse) loads then, not on the first load.
const CsvImportDialog = dynamic(() => import("./csv-import-dialog").then((m) => m.CsvImportDialog), { ssr: false });

// A row nobody typed in (its proposed end-to-end id does not count).
const EMPTY = (r: InstructionRow) => !r.amount && !r.creditor_name && !r.creditor_iban;
const FIELD = "h-8 rounded-md border border-slate-300 bg-white px-2 text-[13px] text-slate-900";

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
      {!runFields && (
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
      )}
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

/**
 * Batch name, company, currency, debtor account (with its available balance)
 * and execution date, with the live count and exact running total.
 */
function BatchHeaderFields({
  companyName,
  currencies,
  today,
  register,
  control,
  errors,
  rows,
  currency,
  lockCurrency,
  runFields,
  accounts,
  debtor,
}: {
  companyName: string;
  currencies: string[];
  today: string;
  register: UseFormRegister<BatchFormValues>;
  control: Control<BatchFormValues, BatchFormContext>;
  errors: FieldErrors<BatchFormValues>;
  rows: InstructionRow[];
  currency: string;
  lockCurrency: boolean;
  runFields: boolean;
  accounts: DebtorAccountOption[];
  debtor: DebtorAccountOption | null;
}) {
  const totals = useMemo(() => runningTotal(rows, currency), [rows, currency]);
  const dateErr = errors.requested_execution_date?.message;
  const refErr = errors.reference?.message;
  const debtorErr = errors.debtor_account_id?.message;
  const label = "flex flex-col gap-1 text-xs font-medium text-slate-600";
  return (
    <div className="mb-4 rounded-lg border border-slate-200 bg-white px-4 py-3">
      <div className="flex flex-wrap items-start gap-x-5 gap-y-3">
        {runFields && (
          <label className={`${label} min-w-[14rem] flex-1`}>
            Batch name / reference
            <input
              {...register("reference")}
              id="batch-reference"
              placeholder="e.g. Suppliers week 48"
              maxLength={140}
              autoComplete="off"
              data-testid="batch-reference"
              aria-invalid={refErr ? true : undefined}
              className={`${FIELD} ${refErr ? "border-red-500" : ""}`}
            />
            {refErr && <span className="text-xs font-normal text-red-700">Reference {refErr}</span>}
          </label>
        )}
        <div className={label}>
          Company
          <span className="flex h-8 items-center text-[13px] text-slate-900">{companyName}</span>
        </div>
        <label className={label}>
          Currency
          <select
            {...register("currency")}
            className={`${FIELD} disabled:bg-slate-50`}
            data-testid="batch-currency"
            disabled={lockCurrency}
          >
            {currencies.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <div className="flex flex-col gap-1">
          <Controller
            control={control}
            name="requested_execution_date"
            render={({ field }) => (
              <DateField
                label="Requested execution date"
                value={field.value || null}
                onChange={(v) => field.onChange(v ?? "")}
                onInvalidText={(t) => field.onChange(t)}
                min={today}
                boundTyped={false}
                invalid={Boolean(dateErr)}
                describedBy="execution-date-note"
                testId="execution-date"
              />
            )}
          />
          {dateErr ? (
            <span id="execution-date-note" className="text-xs font-normal text-red-700">
              {dateErr}
            </span>
          ) : (
            <span id="execution-date-note" className="text-xs font-normal text-slate-500">
              Earliest <BusinessDate date={today} /> (company time)
            </span>
          )}
        </div>
      </div>
      <div className="mt-3 flex flex-wrap items-end gap-x-5 gap-y-3 border-t border-slate-100 pt-3">
        {runFields && (
          <label className={`${label} min-w-[16rem] flex-1`}>
            Pay from (debtor account)
            <select
              {...register("debtor_account_id")}
              id="debtor-account"
              className={`${FIELD} ${debtorErr ? "border-red-500" : ""}`}
              data-testid="debtor-account"
              aria-invalid={debtorErr ? true : undefined}
              aria-describedby="debtor-balance"
            >
              {accounts.length === 0 && <option value="">No active {currency} account</option>}
              {accounts.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} · {a.iban}
                </option>
              ))}
            </select>
            <span id="debtor-balance" className="text-xs font-normal text-slate-600" data-testid="debtor-balance">
              {debtor ? (
                debtor.available_balance !== null ? (
                  <>
                    Available{" "}
                    <Amount value={debtor.available_balance} currency={debtor.currency} className="font-medium" />
                    {debtor.available_as_of ? (
                      <>
                        {" "}
                        on <BusinessDate date={debtor.available_as_of} />
                      </>
                    ) : null}
                  </>
                ) : (
                  "No available balance reported yet"
                )
              ) : (
                "Choose the account the bank debits"
              )}
            </span>
            {debtorErr && <span className="text-xs font-normal text-red-700">Debtor account {debtorErr}</span>}
          </label>
        )}
        <div className="ml-auto text-right" aria-live="polite" data-testid="running-total">
          <div className="text-xs text-slate-500">
            {totals.count} instruction{totals.count === 1 ? "" : "s"}
            {totals.invalid ? ` · ${totals.invalid} without a valid amount` : ""}
          </div>
          <div className="text-base font-semibold">
            <Amount value={totals.total} currency={currency} />
          </div>
          {runFields && debtor?.available_balance != null && debtor.currency === currency && (
            <OverBalance total={totals.total} available={debtor.available_balance} />
          )}
        </div>
      </div>
    </div>
  );
}

const CELL_LABEL: Record<string, string> = {
  creditor_name: "Creditor name",
  creditor_iban: "Creditor IBAN",
  end_to_end_id: "End-to-end id",
  amount: "Amount",
  creditor_bic: "BIC",
  remittance: "Remittance",
};
const CELL_TARGET: Record<string, (i: number) => string> = {
  creditor_bic: (i) => `ins-${i}-bic`,
  remittance: (i) => `ins-${i}-rem`,
};

/** Every problem of the form, in form order: the field's label, its message, and the element to go to. */
export function errorList(errors: FieldErrors<BatchFormValues>): { label: string; message: string; target: string }[] {
  const out: { label: string; message: string; target: string }[] = [];
  const top: [keyof BatchFormValues, string, string][] = [
    ["reference", "Batch name", "#batch-reference"],
    ["debtor_account_id", "Pay from", "#debtor-account"],
    ["requested_execution_date", "Execution date", '[data-testid="execution-date"]'],
  ];
  for (const [key, label, target] of top) {
    const m = (errors[key] as { message?: string } | undefined)?.message;
    if (m) out.push({ label, message: cellMessage(label, m), target });
  }
  const rows = errors.instructions as unknown as Record<string, Record<string, { message?: string }> | undefined>;
  const listMessage = errors.instructions?.root?.message ?? errors.instructions?.message;
  if (listMessage) out.push({ label: "Instructions", message: `Instructions ${listMessage}`, target: "#ins-0-amount" });
  for (const [key, row] of Object.entries(rows ?? {})) {
    const i = Number(key);
    if (!Number.isInteger(i) || !row) continue;
    for (const cell of ["creditor_name", "creditor_iban", "end_to_end_id", "amount", "creditor_bic", "remittance"]) {
      const m = row[cell]?.message;
      const label = CELL_LABEL[cell] ?? cell;
      if (m)
        out.push({
          label: `Row ${i + 1} · ${label}`,
          message: cellMessage(label, String(m)),
          target: `#${CELL_TARGET[cell]?.(i) ?? `ins-${i}-${cell}`}`,
        });
    }
  }
  return out;
}

/**
 * After a save attempt, the form's problems at its top, each a link that moves the focus to its field; it follows
 * the fields as they are corrected (validation runs on every change) and disappears when none is left.
 */
function ErrorSummary({ errors }: { errors: FieldErrors<BatchFormValues> }) {
  const list = errorList(errors);
  if (list.length === 0) return null;
  return (
    <div
      role="alert"
      aria-labelledby="error-summary-title"
      className="mb-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-[13px] text-red-900"
      data-testid="error-summary"
    >
      <h2 id="error-summary-title" className="font-semibold">
        {list.length === 1 ? "1 thing to fix before saving" : `${list.length} things to fix before saving`}
      </h2>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {list.map((e) => (
          <li key={`${e.label}-${e.target}`}>
            <a
              href={e.target.startsWith("#") ? e.target : "#"}
              className="inline-block min-h-6 py-0.5 underline underline-offset-2 hover:text-red-700"
              onClick={(ev) => {
                const el = document.querySelector<HTMLElement>(e.target);
                if (!el) return;
                ev.preventDefault();
                el.scrollIntoView({ block: "center" });
                el.focus();
              }}
            >
              {e.label}: {e.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A warning when the running total is above the debtor account's available balance (exact comparison). */
function OverBalance({ total, available }: { total: string; available: string }) {
  const [over, setOver] = useState(false);
  useEffect(() => {
    let live = true;
    void import("@treasury/contract/exact-decimal").then(({ ExactDecimal }) => {
      if (live) setOver(new ExactDecimal(total).gt(available));
    });
    return () => {
      live = false;
    };
  }, [total, available]);
  if (!over) return null;
  return <div className="text-xs font-medium text-amber-800">Above the available balance</div>;
}

/**
 * Import CSV on the left; on the right, why the last save failed and the Create / Save button, and for a new batch
 * "Create and submit…" (the batch opens with its submit dialog: one click less for the usual case). `onPress` says
 * which was pressed (true: and submit) before the form submits.
 */
function SaveBar({
  save,
  onImport,
  editing,
  onPress,
}: {
  save: ReturnType<typeof useSaveBatch>["save"];
  onImport: () => void;
  editing: boolean;
  onPress: (thenSubmit: boolean) => void;
}) {
  const pending = save.isPending || save.isSuccess;
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <Button onClick={onImport} data-testid="open-csv">
        <FileUp className="size-4" aria-hidden /> Import CSV…
      </Button>
      <div className="flex flex-wrap items-center gap-3">
        {save.isError && (
          <span className="text-[13px] text-red-700">
            {isFinalRefusal(save.error)
              ? "Not saved. Correct the marked fields, then save again."
              : "Not saved. Saving again sends the same request for the same batch."}
          </span>
        )}
        <Button
          type="submit"
          variant={editing ? "primary" : "secondary"}
          pending={pending}
          onClick={() => onPress(false)}
          data-testid="save-batch"
        >
          {save.isPending ? "Saving…" : editing ? "Save changes" : "Create batch"}
        </Button>
        {!editing && (
          <Button
            type="submit"
            variant="primary"
            pending={pending}
            onClick={() => onPress(true)}
            data-testid="save-and-submit"
          >
            <Send className="size-4" aria-hidden /> Create and submit…
          </Button>
        )}
      </div>
    </div>
  );
}
