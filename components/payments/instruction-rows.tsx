"use client";

import { Fragment, useRef } from "react";
import {
  Controller,
  useFieldArray,
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormRegister,
  type UseFormSetValue,
} from "react-hook-form";
import { friendlyFormatIBAN } from "ibantools";
import { Copy, Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { STACK_TABLE, scrollRegionProps, useStackLabels } from "@/components/ui/table";
import { newEndToEndId } from "@/lib/payments/end-to-end-id";
import { amountExample } from "@/lib/payments/amount-input";
import { useLocale } from "@/components/format/use-locale";
import { bicRequired, cellMessage, emptyRow, type BatchFormValues } from "./batch-form-schema";
import { AmountInput } from "./amount-input";
import { IbanCountry } from "./iban-country";
import { PayeeFlag, PayeeTypeahead, payeeStanding, type PayeeOption } from "./payee-typeahead";

const COLUMNS = [
  { name: "creditor_name", label: "Creditor name", width: "w-[26%]" },
  { name: "creditor_iban", label: "Creditor IBAN", width: "w-[30%]" },
  { name: "end_to_end_id", label: "End-to-end id", width: "w-[20%]" },
  { name: "amount", label: "Amount", width: "w-[16%]" },
] as const;

/**
 * The instructions editor: one row per instruction with add,
 * duplicate and remove; every cell is a labelled input reachable with Tab,
 * Enter in the last row's amount adds a row; each cell shows its own error.
 * The creditor name is a typeahead over the company's counterparties; under
 * each row its payee flag ("not a verified counterparty" for an ad-hoc
 * creditor) and, when the API takes them, BIC and remittance information.
 */
export function InstructionRows({
  control,
  register,
  setValue,
  errors,
  currency,
  payees,
  runFields,
}: {
  control: Control<BatchFormValues>;
  register: UseFormRegister<BatchFormValues>;
  setValue: UseFormSetValue<BatchFormValues>;
  errors: FieldErrors<BatchFormValues>;
  currency: string;
  payees: readonly PayeeOption[];
  runFields: boolean;
}) {
  const { fields, append, remove, insert } = useFieldArray({ control, name: "instructions" });
  const rows = useWatch({ control, name: "instructions" });
  const locale = useLocale();
  const example = amountExample(locale);
  // A new row gets a proposed end-to-end id, distinct from every id already in the editor.
  const freshRow = () =>
    emptyRow(currency, newEndToEndId({ taken: new Set((rows ?? []).map((r) => r.end_to_end_id)) }));
  const tableRef = useRef<HTMLTableElement>(null);
  useStackLabels(tableRef);
  const input = "h-8 w-full rounded-md border bg-white px-2 text-[13px] text-slate-900";
  return (
    <div {...scrollRegionProps("Instructions")}>
      {/*
        From `md` to ~56rem the table scrolls sideways rather than squeezing its inputs unreadably narrow; the box is
        positioned so the visually hidden (absolute) cell labels are clipped with it and do not widen the page. On a
        phone each instruction is a card of captioned fields, the amount among them (docs/architecture.md#phones).
      */}
      <table
        ref={tableRef}
        className={`w-full border-collapse text-[13px] md:min-w-[56rem] ${STACK_TABLE}`}
        aria-label="Instructions"
      >
        <thead>
          <tr>
            <th
              scope="col"
              className={
                "w-10 border-b border-slate-200 bg-slate-50 px-2 py-2 text-left text-xs font-medium " +
                "uppercase tracking-wide text-slate-500"
              }
            >
              #
            </th>
            {COLUMNS.map((c) => (
              <th
                key={c.name}
                scope="col"
                data-stack-label={c.name === "amount" ? `${c.label} (${currency}), like ${example}` : undefined}
                className={
                  `${c.width} border-b border-slate-200 bg-slate-50 px-2 py-2 text-xs font-medium ` +
                  `uppercase tracking-wide text-slate-500 ${c.name === "amount" ? "text-right" : "text-left"}`
                }
              >
                {c.label}
                {c.name === "amount" ? ` (${currency})` : ""}
                {c.name === "amount" && (
                  <span className="block font-normal normal-case tracking-normal" data-testid="amount-hint">
                    like {example}
                  </span>
                )}
              </th>
            ))}
            <th scope="col" className="border-b border-slate-200 bg-slate-50 px-2 py-2">
              <span className="sr-only">Row actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field, i) => {
            const rowErrors = errors.instructions?.[i];
            const row = rows?.[i];
            const pick = (p: PayeeOption) => {
              const opts = { shouldValidate: true, shouldDirty: true };
              setValue(`instructions.${i}.creditor_name`, p.name, opts);
              setValue(`instructions.${i}.creditor_iban`, friendlyFormatIBAN(p.iban) ?? p.iban, opts);
              setValue(`instructions.${i}.counterparty_id`, p.id);
              if (runFields && p.bic) setValue(`instructions.${i}.creditor_bic`, p.bic, opts);
              if (runFields && p.defaultRemittance && !row?.remittance) {
                setValue(`instructions.${i}.remittance_kind`, "unstructured");
                setValue(`instructions.${i}.remittance`, p.defaultRemittance, opts);
              }
            };
            return (
              <Fragment key={field.id}>
                <tr data-testid="editor-row" className={rowErrors ? "bg-red-50/40" : ""}>
                  <td
                    rowSpan={2}
                    className="border-b border-slate-200 px-2 py-1.5 align-top text-xs text-slate-500 tabular"
                  >
                    <span className="md:hidden">Instruction </span>
                    {i + 1}
                  </td>
                  {COLUMNS.map((c) => {
                    const err = rowErrors?.[c.name]?.message;
                    const id = `ins-${i}-${c.name}`;
                    if (c.name === "creditor_name")
                      return (
                        <td key={c.name} className="px-2 pb-1 pt-1.5 align-top">
                          <PayeeTypeahead
                            id={id}
                            label={`${c.label} of row ${i + 1}`}
                            payees={payees}
                            inputProps={register(`instructions.${i}.creditor_name`)}
                            value={row?.creditor_name ?? ""}
                            invalid={Boolean(err)}
                            describedBy={err ? `${id}-err` : undefined}
                            onPick={pick}
                          />
                          {err && (
                            <span
                              id={`${id}-err`}
                              className="mt-0.5 block text-xs text-red-700"
                              data-testid="cell-error"
                            >
                              {cellMessage(c.label, err)}
                            </span>
                          )}
                        </td>
                      );
                    const cellClass = `${input} ${c.name === "amount" ? "text-right " + "tabular" : ""} ${
                      c.name === "creditor_iban" || c.name === "end_to_end_id" ? "font-mono " + "text-xs" : ""
                    } ${err ? "border-red-500" : "border-slate-300"}`;
                    if (c.name === "amount")
                      return (
                        <td key={c.name} className="px-2 pb-1 pt-1.5 align-top">
                          <label htmlFor={id} className="sr-only">
                            {c.label} of row {i + 1} ({currency}, written like {example})
                          </label>
                          <Controller
                            control={control}
                            name={`instructions.${i}.amount`}
                            render={({ field: f }) => (
                              <AmountInput
                                id={id}
                                name={f.name}
                                value={f.value}
                                onChange={f.onChange}
                                onBlur={f.onBlur}
                                locale={locale}
                                currency={currency}
                                placeholder={example}
                                invalid={Boolean(err)}
                                describedBy={err ? `${id}-err` : undefined}
                                className={cellClass}
                                onKeyDown={(e) => {
                                  if (e.key === "Enter" && i === fields.length - 1) {
                                    e.preventDefault();
                                    append(freshRow());
                                  }
                                }}
                              />
                            )}
                          />
                          {err && (
                            <span
                              id={`${id}-err`}
                              className="mt-0.5 block text-xs text-red-700"
                              data-testid="cell-error"
                            >
                              {cellMessage(c.label, err)}
                            </span>
                          )}
                        </td>
                      );
                    return (
                      <td key={c.name} className="px-2 pb-1 pt-1.5 align-top">
                        <label htmlFor={id} className="sr-only">
                          {c.label} of row {i + 1}
                        </label>
                        <input
                          id={id}
                          {...register(`instructions.${i}.${c.name}`)}
                          autoComplete="off"
                          maxLength={c.name === "end_to_end_id" ? 35 : undefined}
                          aria-invalid={err ? true : undefined}
                          aria-describedby={err ? `${id}-err` : undefined}
                          className={cellClass}
                        />
                        {c.name === "creditor_iban" && <IbanCountry iban={rows?.[i]?.creditor_iban ?? ""} />}
                        {err && (
                          <span id={`${id}-err`} className="mt-0.5 block text-xs text-red-700" data-testid="cell-error">
                            {cellMessage(c.label, err)}
                          </span>
                        )}
                      </td>
                    );
                  })}
                  <td rowSpan={2} className="whitespace-nowrap border-b border-slate-200 px-1 py-1.5 align-top">
                    <Button
                      variant="ghost"
                      className="px-2"
                      aria-label={`Duplicate row ${i + 1}`}
                      onClick={() =>
                        insert(i + 1, { ...(rows?.[i] ?? freshRow()), end_to_end_id: freshRow().end_to_end_id })
                      }
                    >
                      <Copy className="size-3.5" aria-hidden />
                    </Button>
                    <Button
                      variant="ghost"
                      className="px-2"
                      aria-label={`Remove row ${i + 1}`}
                      disabled={fields.length === 1}
                      onClick={() => remove(i)}
                    >
                      <Trash2 className="size-3.5" aria-hidden />
                    </Button>
                  </td>
                </tr>
                <tr className={rowErrors ? "bg-red-50/40" : ""}>
                  <td colSpan={COLUMNS.length} className="border-b border-slate-200 px-2 pb-2 pt-0 align-top">
                    <RowExtras
                      i={i}
                      register={register}
                      errors={rowErrors}
                      row={row}
                      payees={payees}
                      runFields={runFields}
                    />
                  </td>
                </tr>
              </Fragment>
            );
          })}
        </tbody>
      </table>
      <div className="px-2 py-2">
        <Button onClick={() => append(freshRow())} data-testid="add-row">
          <Plus className="size-4" aria-hidden /> Add instruction
        </Button>
      </div>
    </div>
  );
}

const RF_CASE = "font-mono uppercase placeholder:normal-case";
const SMALL = "h-7 rounded-md border bg-white px-2 text-[12px] text-slate-900 placeholder:text-slate-400";

/** The second line of a row: the payee flag, then (with the payment-run fields) BIC and remittance information. */
function RowExtras({
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
