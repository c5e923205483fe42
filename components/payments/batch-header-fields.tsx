"use client";

import { useEffect, useMemo, useState } from "react";
import { Controller, type Control, type FieldErrors, type UseFormRegister } from "react-hook-form";
import { DateField } from "@/components/ui/date-field";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import type { DebtorAccountOption } from "@/lib/views/payment-run";
import { runningTotal, type BatchFormContext, type BatchFormValues, type InstructionRow } from "./batch-form-schema";

const FIELD = "h-8 rounded-md border border-slate-300 bg-white px-2 text-[13px] text-slate-900";
const LABEL = "flex flex-col gap-1 text-xs font-medium text-slate-600";

/**
 * Batch name, company, currency, debtor account (with its available balance)
 * and execution date, with the live count and exact running total.
 */
export function BatchHeaderFields({
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
  const dateErr = errors.requested_execution_date?.message;
  const refErr = errors.reference?.message;
  return (
    <div className="mb-4 rounded-lg border border-slate-200 bg-white px-4 py-3">
      <div className="flex flex-wrap items-start gap-x-5 gap-y-3">
        {runFields && (
          <label className={`${LABEL} min-w-[14rem] flex-1`}>
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
        <div className={LABEL}>
          Company
          <span className="flex h-8 items-center text-[13px] text-slate-900">{companyName}</span>
        </div>
        <label className={LABEL}>
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
          <DebtorAccountField
            register={register}
            errors={errors}
            currency={currency}
            accounts={accounts}
            debtor={debtor}
          />
        )}
        <RunningTotal rows={rows} currency={currency} runFields={runFields} debtor={debtor} />
      </div>
    </div>
  );
}

/** The debtor account's select (accounts in the batch currency) with its available balance and error. */
function DebtorAccountField({
  register,
  errors,
  currency,
  accounts,
  debtor,
}: {
  register: UseFormRegister<BatchFormValues>;
  errors: FieldErrors<BatchFormValues>;
  currency: string;
  accounts: DebtorAccountOption[];
  debtor: DebtorAccountOption | null;
}) {
  const debtorErr = errors.debtor_account_id?.message;
  return (
    <label className={`${LABEL} min-w-[16rem] flex-1`}>
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
              Available <Amount value={debtor.available_balance} currency={debtor.currency} className="font-medium" />
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
  );
}

/** The live count and exact running total, with a warning when it is above the debtor account's available balance. */
function RunningTotal({
  rows,
  currency,
  runFields,
  debtor,
}: {
  rows: InstructionRow[];
  currency: string;
  runFields: boolean;
  debtor: DebtorAccountOption | null;
}) {
  const totals = useMemo(() => runningTotal(rows, currency), [rows, currency]);
  return (
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
