"use client";

import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { bicRequired, cellMessage, type BatchFormValues } from "./batch-form-schema";
import { PayeeFlag, payeeStanding, type PayeeOption } from "./payee-typeahead";

const RF_CASE = "font-mono uppercase placeholder:normal-case";
const SMALL = "h-7 rounded-md border bg-white px-2 text-[12px] text-slate-900 placeholder:text-slate-400";

/** The second line of a row: the payee flag, then (with the payment-run fields) BIC and remittance information. */
export function RowExtras({
  i,
  register,
  errors,
  row,
  payees,
  runFields,
}: {
  i: number;
  register: UseFormRegister<BatchFormValues>;
  errors: NonNullable<FieldErrors<BatchFormValues>["instructions"]>[number] | undefined;
  row: BatchFormValues["instructions"][number] | undefined;
  payees: readonly PayeeOption[];
  runFields: boolean;
}) {
  const standing = payeeStanding(payees, row?.creditor_iban ?? "");
  const kind = row?.remittance_kind ?? "none";
  const bicErr = errors?.creditor_bic?.message;
  const remErr = errors?.remittance?.message;
  const needsBic = bicRequired(row?.creditor_iban ?? "");
  return (
    <div className="flex flex-wrap items-start gap-x-4 gap-y-1.5">
      <div className="flex min-h-7 min-w-[12rem] items-center">
        <PayeeFlag standing={standing} />
      </div>
      {runFields && (
        <>
          <div className="flex flex-col">
            <label htmlFor={`ins-${i}-bic`} className="sr-only">
              BIC of row {i + 1}
            </label>
            <div className="flex items-center gap-1.5">
              <span aria-hidden className="text-xs text-slate-500">
                BIC
              </span>
              <input
                id={`ins-${i}-bic`}
                {...register(`instructions.${i}.creditor_bic`)}
                placeholder={needsBic ? "required" : "optional"}
                autoComplete="off"
                aria-invalid={bicErr ? true : undefined}
                aria-describedby={bicErr ? `ins-${i}-bic-err` : undefined}
                className={
                  `${SMALL} w-32 font-mono uppercase placeholder:font-sans placeholder:normal-case ` +
                  (bicErr ? "border-red-500" : "border-slate-300")
                }
              />
            </div>
            {bicErr && (
              <span id={`ins-${i}-bic-err`} className="mt-0.5 text-xs text-red-700" data-testid="cell-error">
                {cellMessage("BIC", bicErr)}
              </span>
            )}
          </div>
          <div className="flex min-w-[16rem] flex-1 flex-col">
            <div className="flex items-center gap-1.5">
              <label htmlFor={`ins-${i}-remkind`} className="text-xs text-slate-500">
                Remittance
              </label>
              <select
                id={`ins-${i}-remkind`}
                {...register(`instructions.${i}.remittance_kind`)}
                className={`${SMALL} border-slate-300`}
              >
                <option value="none">none</option>
                <option value="unstructured">Text</option>
                <option value="creditor_reference">RF reference</option>
              </select>
              {kind !== "none" && (
                <>
                  <label htmlFor={`ins-${i}-rem`} className="sr-only">
                    {kind === "creditor_reference" ? "RF creditor reference" : "Remittance text"} of row {i + 1}
                  </label>
                  <input
                    id={`ins-${i}-rem`}
                    {...register(`instructions.${i}.remittance`)}
                    placeholder={
                      kind === "creditor_reference" ? "RF18 5390 0754 7034" : "Invoice 4711, up to 140 characters"
                    }
                    maxLength={kind === "creditor_reference" ? 40 : 200}
                    autoComplete="off"
                    aria-invalid={remErr ? true : undefined}
                    aria-describedby={remErr ? `ins-${i}-rem-err` : undefined}
                    className={`${SMALL} min-w-0 flex-1 ${kind === "creditor_reference" ? RF_CASE : ""} ${
                      remErr ? "border-red-500" : "border-slate-300"
                    }`}
                  />
                </>
              )}
            </div>
            {remErr && (
              <span id={`ins-${i}-rem-err`} className="mt-0.5 text-xs text-red-700" data-testid="cell-error">
                {kind === "creditor_reference" ? "Creditor reference" : "Remittance text"} {String(remErr)}
              </span>
            )}
          </div>
        </>
      )}
    </div>
  );
}
