"use client";

import { useRef } from "react";
import type { FieldErrors, UseFormRegister, UseFormSetValue } from "react-hook-form";
import { bicRequired } from "@treasury/contract/bic-rule";
import {
  cellMessage,
  remittanceError,
  remittanceOfKind,
  remittanceValue,
  type BatchFormValues,
  type RemittanceKind,
} from "./batch-form-schema";
import { PayeeFlag, payeeStanding, type PayeeOption } from "./payee-typeahead";

const RF_CASE = "font-mono uppercase placeholder:normal-case";
const SMALL = "h-7 rounded-md border bg-white px-2 text-[12px] text-slate-900 placeholder:text-slate-400";

type RowErrors = NonNullable<FieldErrors<BatchFormValues>["instructions"]>[number] | undefined;
type Row = BatchFormValues["instructions"][number] | undefined;

/**
 * A row's remittance information: the kind selector (none / text / RF reference) and, unless none, one input
 * registered at the contract's path of that kind (`instructions.<i>.remittance_information.text` or `.reference`),
 * so the schema's and the server's errors at that path are its own. Choosing none removes the object; the typed
 * string is kept while the row is on screen, and comes back when a kind is chosen again.
 */
function RemittanceField({
  i,
  setValue,
  register,
  errors,
  row,
}: {
  i: number;
  setValue: UseFormSetValue<BatchFormValues>;
  register: UseFormRegister<BatchFormValues>;
  errors: RowErrors;
  row: Row;
}) {
  const current = row?.remittance_information;
  const kind: RemittanceKind = current?.type ?? "none";
  const hidden = useRef("");
  const remErr = remittanceError(errors);
  const choose = (next: RemittanceKind) => {
    const typed = current ? remittanceValue(current) : hidden.current;
    if (next === "none") hidden.current = typed;
    setValue(`instructions.${i}.remittance_information`, remittanceOfKind(next, typed), {
      shouldDirty: true,
      shouldValidate: true,
    });
  };
  const rf = kind === "creditor_reference";
  return (
    <div className="flex min-w-[16rem] flex-1 flex-col">
      <div className="flex items-center gap-1.5">
        <label htmlFor={`ins-${i}-remkind`} className="text-xs text-slate-500">
          Remittance
        </label>
        <select
          id={`ins-${i}-remkind`}
          value={kind}
          onChange={(e) => choose(e.target.value as RemittanceKind)}
          className={`${SMALL} border-slate-300`}
        >
          <option value="none">none</option>
          <option value="unstructured">Text</option>
          <option value="creditor_reference">RF reference</option>
        </select>
        {kind !== "none" && (
          <>
            <label htmlFor={`ins-${i}-rem`} className="sr-only">
              {rf ? "RF creditor reference" : "Remittance text"} of row {i + 1}
            </label>
            <input
              key={kind}
              id={`ins-${i}-rem`}
              {...register(`instructions.${i}.remittance_information.${rf ? "reference" : "text"}`)}
              placeholder={rf ? "RF18 5390 0754 7034" : "Invoice 4711, up to 140 characters"}
              maxLength={rf ? 40 : 200}
              autoComplete="off"
              aria-invalid={remErr ? true : undefined}
              aria-describedby={remErr ? `ins-${i}-rem-err` : undefined}
              className={`${SMALL} min-w-0 flex-1 ${rf ? RF_CASE : ""} ${remErr ? "border-red-500" : "border-slate-300"}`}
            />
          </>
        )}
      </div>
      {remErr && (
        <span id={`ins-${i}-rem-err`} className="mt-0.5 text-xs text-red-700" data-testid="cell-error">
          {rf ? "Creditor reference" : "Remittance text"} {String(remErr)}
        </span>
      )}
    </div>
  );
}

/** The second line of a row: the payee flag, then (with the payment-run fields) BIC and remittance information. */
export function RowExtras({
  i,
  register,
  setValue,
  errors,
  row,
  payees,
  runFields,
}: {
  i: number;
  register: UseFormRegister<BatchFormValues>;
  setValue: UseFormSetValue<BatchFormValues>;
  errors: RowErrors;
  row: Row;
  payees: readonly PayeeOption[];
  runFields: boolean;
}) {
  const standing = payeeStanding(payees, row?.creditor_iban ?? "");
  const bicErr = errors?.creditor_bic?.message;
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
          <RemittanceField i={i} setValue={setValue} register={register} errors={errors} row={row} />
        </>
      )}
    </div>
  );
}
