"use client";

import { useRef } from "react";
import {
  useFieldArray,
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormRegister,
  type UseFormSetValue,
} from "react-hook-form";
import { Plus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { STACK_TABLE, scrollRegionProps, useStackLabels } from "@/components/ui/table";
import { newEndToEndId } from "@/lib/payments/end-to-end-id";
import { amountExample } from "@/lib/payments/amount-input";
import { useLocale } from "@/components/format/use-locale";
import { emptyRow, type BatchFormValues } from "./batch-form-schema";
import { InstructionRow, INSTRUCTION_COLUMNS } from "./instruction-row";
import type { PayeeOption } from "./payee-typeahead";

const COLUMNS = INSTRUCTION_COLUMNS;

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
          {fields.map((field, i) => (
            <InstructionRow
              key={field.id}
              i={i}
              control={control}
              register={register}
              setValue={setValue}
              errors={errors.instructions?.[i]}
              row={rows?.[i]}
              currency={currency}
              example={example}
              payees={payees}
              runFields={runFields}
              onEnterAtEnd={i === fields.length - 1 ? () => append(freshRow()) : undefined}
              onDuplicate={() =>
                insert(i + 1, { ...(rows?.[i] ?? freshRow()), end_to_end_id: freshRow().end_to_end_id })
              }
              onRemove={fields.length === 1 ? undefined : () => remove(i)}
            />
          ))}
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
