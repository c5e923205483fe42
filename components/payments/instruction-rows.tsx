"use client";

import { useFieldArray, useWatch, type Control, type FieldErrors, type UseFormRegister } from "react-hook-form";
import { Copy, Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { emptyRow, type BatchFormValues } from "./batch-form-schema";
import { IbanCountry } from "./iban-country";

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
 */
export function InstructionRows({
  control,
  register,
  errors,
  currency,
}: {
  control: Control<BatchFormValues>;
  register: UseFormRegister<BatchFormValues>;
  errors: FieldErrors<BatchFormValues>;
  currency: string;
}) {
  const { fields, append, remove, insert } = useFieldArray({ control, name: "instructions" });
  const rows = useWatch({ control, name: "instructions" });
  const input = "h-8 w-full rounded-md border bg-white px-2 text-[13px] text-slate-900";
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full border-collapse text-[13px]" aria-label="Instructions">
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
                className={
                  `${c.width} border-b border-slate-200 bg-slate-50 px-2 py-2 text-xs font-medium ` +
                  `uppercase tracking-wide text-slate-500 ${c.name === "amount" ? "text-right" : "text-left"}`
                }
              >
                {c.label}
                {c.name === "amount" ? ` (${currency})` : ""}
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
            return (
              <tr key={field.id} data-testid="editor-row" className={rowErrors ? "bg-red-50/40" : ""}>
                <td className="border-b border-slate-100 px-2 py-1.5 align-top text-xs text-slate-500 tabular">
                  {i + 1}
                </td>
                {COLUMNS.map((c) => {
                  const err = rowErrors?.[c.name]?.message;
                  const id = `ins-${i}-${c.name}`;
                  return (
                    <td key={c.name} className="border-b border-slate-100 px-2 py-1.5 align-top">
                      <label htmlFor={id} className="sr-only">
                        {c.label} of row {i + 1}
                      </label>
                      <input
                        id={id}
                        {...register(`instructions.${i}.${c.name}`)}
                        inputMode={c.name === "amount" ? "decimal" : undefined}
                        autoComplete="off"
                        aria-invalid={err ? true : undefined}
                        aria-describedby={err ? `${id}-err` : undefined}
                        className={`${input} ${c.name === "amount" ? "text-right " + "tabular" : ""} ${
                          c.name === "creditor_iban" || c.name === "end_to_end_id" ? "font-mono " + "text-xs" : ""
                        } ${err ? "border-red-500" : "border-slate-300"}`}
                        onKeyDown={(e) => {
                          if (e.key === "Enter" && c.name === "amount" && i === fields.length - 1) {
                            e.preventDefault();
                            append(emptyRow(currency));
                          }
                        }}
                      />
                      {c.name === "creditor_iban" && <IbanCountry iban={rows?.[i]?.creditor_iban ?? ""} />}
                      {err && (
                        <span
                          id={`${id}-err`}
                          className="mt-0.5 block text-[11px] text-red-700"
                          data-testid="cell-error"
                        >
                          {c.label} {err}
                        </span>
                      )}
                    </td>
                  );
                })}
                <td className="whitespace-nowrap border-b border-slate-100 px-1 py-1.5 align-top">
                  <Button
                    variant="ghost"
                    className="px-2"
                    aria-label={`Duplicate row ${i + 1}`}
                    onClick={() => insert(i + 1, { ...(rows?.[i] ?? emptyRow(currency)), end_to_end_id: "" })}
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
            );
          })}
        </tbody>
      </table>
      <div className="px-2 py-2">
        <Button onClick={() => append(emptyRow(currency))} data-testid="add-row">
          <Plus className="size-4" aria-hidden /> Add instruction
        </Button>
      </div>
    </div>
  );
}
