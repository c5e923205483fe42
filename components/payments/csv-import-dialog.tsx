"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import type { InstructionRow } from "./batch-form-schema";
import { useLocale } from "@/components/format/use-locale";
import {
  amountFormatNote,
  CSV_FIELDS,
  CSV_RUN_FIELDS,
  notSendableMessage,
  parseInstructionsCsv,
  toInstructionRows,
  validateCsvRows,
  type AmountFormat,
  type CsvField,
  type CsvRow,
  type CsvRunField,
} from "./csv-import";
import { CsvFilePicker } from "@/components/ui/csv-file-picker";
import { STACK_TABLE, useStackLabels } from "@/components/ui/table";

const LABELS: Record<CsvField, string> = {
  creditor_name: "Creditor name",
  creditor_iban: "IBAN",
  amount: "Amount",
  end_to_end_id: "End-to-end id",
  creditor_bic: "BIC",
  remittance_information: "Remittance text",
  creditor_reference: "RF reference",
};

/**
 * Import instructions from a CSV file: a preview that marks
 * each bad row and cell, where a bad cell can be corrected in place; the
 * rows are added to the editor only when every row is valid. The optional
 * BIC / remittance columns are shown when the file has them; with `runFields`
 * false (the API does not take them) their filled cells are marked and the
 * dialog says why, so the rows are never imported without them.
 */
export function CsvImportDialog({
  currency,
  takenIds,
  runFields,
  onImport,
  onClose,
}: {
  currency: string;
  takenIds: ReadonlySet<string>;
  /** The API advertises the payment-run extensions (BIC, remittance information). */
  runFields: boolean;
  onImport: (rows: InstructionRow[]) => void;
  onClose: () => void;
}) {
  const [rows, setRows] = useState<CsvRow[] | null>(null);
  const [runColumns, setRunColumns] = useState<CsvRunField[]>([]);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [fileName, setFileName] = useState("");
  const [amountFormat, setAmountFormat] = useState<AmountFormat | undefined>(undefined);
  const locale = useLocale();
  const errors = useMemo(
    () => (rows ? validateCsvRows(rows, currency, takenIds, runFields, amountFormat) : {}),
    [rows, currency, takenIds, runFields, amountFormat],
  );
  const notSendable = rows ? notSendableMessage(rows, runFields) : null;
  const columns: CsvField[] = [...CSV_FIELDS, ...runColumns];
  const badRows = Object.keys(errors).length;
  const ready = rows !== null && rows.length > 0 && badRows === 0 && fileErrors.length === 0;
  const tableRef = useRef<HTMLTableElement>(null);
  useStackLabels(tableRef);
  // The first failing cell is brought into view (in the preview's box, sideways too, and on a phone's card) whenever
  // it changes: a new file, or the previous one corrected. Not on every keystroke in the same cell.
  const firstBad = Object.entries(errors)
    .map(([i, cells]) => `${i}:${Object.keys(cells ?? {})[0] ?? ""}`)
    .at(0);
  useEffect(() => {
    if (!firstBad) return;
    tableRef.current
      ?.querySelector<HTMLElement>('[aria-invalid="true"]')
      ?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [firstBad]);

  async function read(file: File) {
    const parsed = parseInstructionsCsv(await file.text(), currency, locale);
    setFileName(file.name);
    setAmountFormat(parsed.amountFormat);
    setRows(parsed.rows);
    setRunColumns(parsed.runColumns);
    setFileErrors(parsed.fileErrors);
  }

  function edit(i: number, field: CsvField, value: string) {
    setRows((prev) => prev?.map((r, j) => (j === i ? { ...r, [field]: value } : r)) ?? null);
  }

  return (
    <Modal
      open
      wide={runColumns.length ? "xl" : true}
      onOpenChange={(o) => !o && onClose()}
      title="Import instructions from CSV"
      testId="csv-dialog"
      description={
        `Columns: ${CSV_FIELDS.join(", ")}` +
        (runFields ? `; optional ${CSV_RUN_FIELDS.join(", ")} (text or RF reference, not both)` : "") +
        `. Amounts in ${currency}, written 1.234,50, 1 234,50 or 1,234.50.`
      }
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="primary"
            disabled={!ready}
            onClick={() => rows && onImport(toInstructionRows(rows, amountFormat))}
            data-testid="csv-import"
          >
            {rows ? `Import ${rows.length} instruction${rows.length === 1 ? "" : "s"}` : "Import"}
          </Button>
        </>
      }
    >
      <CsvFilePicker fileName={fileName} accept=".csv,text/csv" testId="csv-file" onFile={(f) => void read(f)} />
      {rows && amountFormat && (
        <p className="mt-2 text-[13px] text-slate-700" data-testid="csv-amount-format">
          {amountFormatNote(amountFormat)}
        </p>
      )}
      {fileErrors.map((e) => (
        <p key={e} role="alert" className="mt-2 text-[13px] text-red-700">
          {e}
        </p>
      ))}
      {notSendable && (
        <p role="alert" className="mt-2 text-[13px] text-red-700" data-testid="csv-not-sendable">
          {notSendable}
        </p>
      )}
      {rows && rows.length > 0 && (
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
                      {LABELS[f]}
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
                            aria-label={`${LABELS[f]} of file row ${i + 2}`}
                            aria-invalid={err ? true : undefined}
                            value={r[f]}
                            onChange={(e) => edit(i, f, e.target.value)}
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
      )}
    </Modal>
  );
}
