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
import { CsvPreview } from "./csv-preview";

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
        <CsvPreview tableRef={tableRef} rows={rows} columns={columns} errors={errors} onEdit={edit} />
      )}
    </Modal>
  );
}
