"use client";

import type { RefObject } from "react";
import { STACK_TABLE, useStackLabels } from "@/components/ui/table";
import type { CsvField, CsvRow } from "./csv-import";

export const CSV_LABELS: Record<CsvField, string> = {
  creditor_name: "Creditor name",
  creditor_iban: "IBAN",
  amount: "Amount",
  end_to_end_id: "End-to-end id",
  creditor_bic: "BIC",
  remittance_information: "Remittance text",
  creditor_reference: "RF reference",
};

/**
 * The CSV import's preview: the summary line, then one row per file row (numbered as in the file, the header being
 * row 1) whose cells are inputs, each bad cell marked with its message. On a phone each row is a card of labelled
 * fields (docs/architecture.md#phones), labelled here, where the table mounts (labelled from the dialog, which
 * mounts before any file is chosen, the cards had no labels); `tableRef` is the dialog's, which scrolls to a bad cell.
 */
export function CsvPreview({
  tableRef,
  rows,
  columns,
  errors,
  onEdit,
}: {
  tableRef: RefObject<HTMLTableElement | null>;
  rows: CsvRow[];
  columns: CsvField[];
  errors: Partial<Record<number, Partial<Record<CsvField, string>>>>;
  onEdit: (i: number, field: CsvField, value: string) => void;
}) {
  useStackLabels(tableRef);
  const badRows = Object.keys(errors).length;
  return (
    <>
      <>
        <p className="mt-3 text-[13px]" role="status" data-testid="csv-summary">
          {badRows === 0 ? (
            <span className="text-emerald-700">All {rows.length} rows are valid.</span>
          ) : (
            <span className="text-red-700">
              {badRows} of {rows.length} rows have problems — correct the marked cells to import.
            </span>
          )}
        </p>
        <div className="mt-2 max-h-80 overflow-auto rounded-md border border-slate-200">
          {/* On a phone each file row is a card of labelled fields (docs/architecture.md#phones). */}
          <table
            ref={tableRef}
            className={`w-full border-collapse text-[12px] ${STACK_TABLE}`}
            aria-label="CSV preview"
          >
            <thead className="sticky top-0 bg-slate-50">
              <tr>
                <th scope="col" className="px-2 py-1.5 text-left font-medium text-slate-500">
                  Row
                </th>
                {columns.map((f) => (
                  <th
                    key={f}
                    scope="col"
                    className={
                      `px-2 py-1.5 font-medium text-slate-500 ` + `${f === "amount" ? "text-right" : "text-left"}`
                    }
                  >
                    {CSV_LABELS[f]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr
                  key={i}
                  data-testid="csv-row"
                  data-bad={errors[i] ? "true" : undefined}
                  className={errors[i] ? "bg-red-50" : ""}
                >
                  <td className="border-t border-slate-100 px-2 py-1 align-top tabular text-slate-500">
                    <span className="md:hidden">File row </span>
                    {i + 2}
                  </td>
                  {columns.map((f) => {
                    const err = errors[i]?.[f];
                    return (
                      <td key={f} className="border-t border-slate-100 px-1 py-1 align-top">
                        <input
                          aria-label={`${CSV_LABELS[f]} of file row ${i + 2}`}
                          aria-invalid={err ? true : undefined}
                          value={r[f]}
                          onChange={(e) => onEdit(i, f, e.target.value)}
                          className={`h-7 w-full rounded border px-1.5 ${
                            f === "amount" ? "text-right " + "tabular" : ""
                          } ${f === "creditor_iban" ? "min-w-56 font-mono " + "text-xs" : ""} ${
                            f === "creditor_bic"
                              ? "min-w-32 font-mono text-xs"
                              : f === "creditor_reference"
                                ? "min-w-44 font-mono text-xs"
                                : ""
                          } ${f === "remittance_information" ? "min-w-44" : ""} ${
                            f === "creditor_name" ? "min-w-32" : f === "end_to_end_id" ? "min-w-40" : ""
                          } ${
                            err
                              ? "border-red-500 bg-white"
                              : "border-transparent " + "bg-transparent hover:border-slate-300"
                          }`}
                        />
                        {err && (
                          <span className="block px-1.5 text-xs text-red-700" data-testid="csv-cell-error">
                            {err}
                          </span>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </>
    </>
  );
}
