"use client";

import { Fragment } from "react";
import {
  Controller,
  type Control,
  type FieldErrors,
  type UseFormRegister,
  type UseFormSetValue,
} from "react-hook-form";
import { friendlyFormatIBAN } from "ibantools";
import { Copy, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useLocale } from "@/components/format/use-locale";
import { cellMessage, remittanceValue, type BatchFormValues } from "./batch-form-schema";
import { AmountInput } from "./amount-input";
import { IbanCountry } from "./iban-country";
import { PayeeTypeahead, type PayeeOption } from "./payee-typeahead";
import { RowExtras } from "./row-extras";

/** The editor's columns: field name, header label and width. */
export const INSTRUCTION_COLUMNS = [
  { name: "creditor_name", label: "Creditor name", width: "w-[26%]" },
  { name: "creditor_iban", label: "Creditor IBAN", width: "w-[30%]" },
  { name: "end_to_end_id", label: "End-to-end id", width: "w-[20%]" },
  { name: "amount", label: "Amount", width: "w-[16%]" },
] as const;

type Column = (typeof INSTRUCTION_COLUMNS)[number];
type Row = BatchFormValues["instructions"][number];
type RowErrors = NonNullable<FieldErrors<BatchFormValues>["instructions"]>[number] | undefined;

const INPUT = "h-8 w-full rounded-md border bg-white px-2 text-[13px] text-slate-900";

/** What one row of the editor needs from the form and the editor. */
export interface InstructionRowProps {
  i: number;
  control: Control<BatchFormValues>;
  register: UseFormRegister<BatchFormValues>;
  setValue: UseFormSetValue<BatchFormValues>;
  errors: RowErrors;
  row: Row | undefined;
  currency: string;
  example: string;
  payees: readonly PayeeOption[];
  runFields: boolean;
  /** Enter in this row's amount adds a row (only the last row has it). */
  onEnterAtEnd?: () => void;
  onDuplicate: () => void;
  /** Undefined when this is the only row (it cannot be removed). */
  onRemove?: () => void;
}

/** A cell's error line (`ins-<row>-<field>-err`, the input's aria-describedby). */
function CellError({ id, label, err }: { id: string; label: string; err: string | undefined }) {
  if (!err) return null;
  return (
    <span id={`${id}-err`} className="mt-0.5 block text-xs text-red-700" data-testid="cell-error">
      {cellMessage(label, err)}
    </span>
  );
}

/** One cell of an instruction: the payee typeahead, the amount input, or a plain text input. */
function InstructionCell({ c, p }: { c: Column; p: InstructionRowProps }) {
  const { i, row, register, currency, example } = p;
  const locale = useLocale();
  const err = p.errors?.[c.name]?.message;
  const id = `ins-${i}-${c.name}`;
  const describedBy = err ? `${id}-err` : undefined;
  if (c.name === "creditor_name") {
    const pick = (payee: PayeeOption) => {
      const opts = { shouldValidate: true, shouldDirty: true };
      p.setValue(`instructions.${i}.creditor_name`, payee.name, opts);
      p.setValue(`instructions.${i}.creditor_iban`, friendlyFormatIBAN(payee.iban) ?? payee.iban, opts);
      p.setValue(`instructions.${i}.counterparty_id`, payee.id);
      if (p.runFields && payee.bic) p.setValue(`instructions.${i}.creditor_bic`, payee.bic, opts);
      if (p.runFields && payee.defaultRemittance && !remittanceValue(row?.remittance_information))
        p.setValue(
          `instructions.${i}.remittance_information`,
          { type: "unstructured", text: payee.defaultRemittance },
          opts,
        );
    };
    return (
      <td className="px-2 pb-1 pt-1.5 align-top">
        <PayeeTypeahead
          id={id}
          label={`${c.label} of row ${i + 1}`}
          payees={p.payees}
          inputProps={register(`instructions.${i}.creditor_name`)}
          value={row?.creditor_name ?? ""}
          invalid={Boolean(err)}
          describedBy={describedBy}
          onPick={pick}
        />
        <CellError id={id} label={c.label} err={err} />
      </td>
    );
  }
  const cellClass = `${INPUT} ${c.name === "amount" ? "text-right " + "tabular" : ""} ${
    c.name === "creditor_iban" || c.name === "end_to_end_id" ? "font-mono " + "text-xs" : ""
  } ${err ? "border-red-500" : "border-slate-300"}`;
  if (c.name === "amount")
    return (
      <td className="px-2 pb-1 pt-1.5 align-top">
        <label htmlFor={id} className="sr-only">
          {c.label} of row {i + 1} ({currency}, written like {example})
        </label>
        <Controller
          control={p.control}
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
              describedBy={describedBy}
              className={cellClass}
              onKeyDown={(e) => {
                if (e.key === "Enter" && p.onEnterAtEnd) {
                  e.preventDefault();
                  p.onEnterAtEnd();
                }
              }}
            />
          )}
        />
        <CellError id={id} label={c.label} err={err} />
      </td>
    );
  return (
    <td className="px-2 pb-1 pt-1.5 align-top">
      <label htmlFor={id} className="sr-only">
        {c.label} of row {i + 1}
      </label>
      <input
        id={id}
        {...register(`instructions.${i}.${c.name}`)}
        autoComplete="off"
        maxLength={c.name === "end_to_end_id" ? 35 : undefined}
        aria-invalid={err ? true : undefined}
        aria-describedby={describedBy}
        className={cellClass}
      />
      {c.name === "creditor_iban" && <IbanCountry iban={row?.creditor_iban ?? ""} />}
      <CellError id={id} label={c.label} err={err} />
    </td>
  );
}

/** One instruction of the editor: its cells and row actions, then its second line (payee flag, BIC, remittance). */
export function InstructionRow(p: InstructionRowProps) {
  const { i, errors } = p;
  return (
    <Fragment>
      <tr data-testid="editor-row" className={errors ? "bg-red-50/40" : ""}>
        <td rowSpan={2} className="border-b border-slate-200 px-2 py-1.5 align-top text-xs text-slate-500 tabular">
          <span className="md:hidden">Instruction </span>
          {i + 1}
        </td>
        {INSTRUCTION_COLUMNS.map((c) => (
          <InstructionCell key={c.name} c={c} p={p} />
        ))}
        <td rowSpan={2} className="whitespace-nowrap border-b border-slate-200 px-1 py-1.5 align-top">
          <Button variant="ghost" className="px-2" aria-label={`Duplicate row ${i + 1}`} onClick={p.onDuplicate}>
            <Copy className="size-3.5" aria-hidden />
          </Button>
          <Button
            variant="ghost"
            className="px-2"
            aria-label={`Remove row ${i + 1}`}
            disabled={!p.onRemove}
            onClick={() => p.onRemove?.()}
          >
            <Trash2 className="size-3.5" aria-hidden />
          </Button>
        </td>
      </tr>
      <tr className={errors ? "bg-red-50/40" : ""}>
        <td colSpan={INSTRUCTION_COLUMNS.length} className="border-b border-slate-200 px-2 pb-2 pt-0 align-top">
          <RowExtras
            i={i}
            register={p.register}
            setValue={p.setValue}
            errors={errors}
            row={p.row}
            payees={p.payees}
            runFields={p.runFields}
          />
        </td>
      </tr>
    </Fragment>
  );
}
