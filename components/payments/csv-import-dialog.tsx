"use client";

import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import type { InstructionRow } from "./batch-form-schema";
import { CSV_FIELDS, parseInstructionsCsv, validateCsvRows } from "./csv-import";
import { CsvFilePicker } from "@/components/ui/csv-file-picker";

const LABELS: Record<(typeof CSV_FIELDS)[number], string> = {
  creditor_name: "Creditor name",
  creditor_iban: "IBAN",
  amount: "Amount",
  end_to_end_id: "End-to-end id",
};

/**
 * Import instructions from a CSV file: a preview that marks
 * each bad row and cell, where a bad cell can be corrected in place; the
 * rows are added to the editor only when every row is valid.
 */
export function CsvImportDialog({
  currency,
  takenIds,
  onImport,
  onClose,
}: {
  currency: string;
  takenIds: ReadonlySet<string>;
  onImport: (rows: InstructionRow[]) => void;
  onClose: () => void;
}) {
  const [rows, setRows] = useState<InstructionRow[] | null>(null);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [fileName, setFileName] = useState("");
  const errors = useMemo(() => (rows ? validateCsvRows(rows, currency, takenIds) : {}), [rows, currency, takenIds]);
  const badRows = Object.keys(errors).length;
  const ready = rows !== null && rows.length > 0 && badRows === 0 && fileErrors.length === 0;

  async function read(file: File) {
    const parsed = parseInstructionsCsv(await file.text(), currency);
    setFileName(file.name);
    setRows(parsed.rows);
    setFileErrors(parsed.fileErrors);
  }

  function edit(i: number, field: (typeof CSV_FIELDS)[number], value: string) {
    setRows((prev) => prev?.map((r, j) => (j === i ? { ...r, [field]: value } : r)) ?? null);
  }

  return (
    <Modal
      open
      wide
      onOpenChange={(o) => !o && onClose()}
      title="Import instructions from CSV"
      testId="csv-dialog"
      description={`Columns: ${CSV_FIELDS.join(", ")}. Amounts in ${currency}, with a point as decimal separator.`}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={!ready} onClick={() => rows && onImport(rows)} data-testid="csv-import">
            {rows ? `Import ${rows.length} instruction${rows.length === 1 ? "" : "s"}` : "Import"}
          </Button>
        </>
      }
    >
      <CsvFilePicker fileName={fileName} accept=".csv,text/csv" testId="csv-file" onFile={(f) => void read(f)} />
      {fileErrors.map((e) => (
        <p key={e} role="alert" className="mt-2 text-[13px] text-red-700">
          {e}
        </p>
      ))}
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
            <table className="w-full border-collapse text-[12px]" aria-label="CSV preview">
              <thead className="sticky top-0 bg-slate-50">
                <tr>
                  <th scope="col" className="px-2 py-1.5 text-left font-medium text-slate-500">
                    Row
                  </th>
                  {CSV_FIELDS.map((f) => (
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
                    <td className="border-t border-slate-100 px-2 py-1 align-top tabular text-slate-500">{i + 2}</td>
                    {CSV_FIELDS.map((f) => {
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
