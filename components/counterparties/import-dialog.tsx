"use client";

import { useState } from "react";
import { toast } from "@/components/ui/toast";
import { COUNTERPARTY_CSV_COLUMNS, type CounterpartyImportView } from "@/lib/views/counterparties";
import { BffRequestError } from "@/components/data/bff-fetch";
import { errorText } from "@/components/data/error-text";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { formatIban } from "./status-badge";
import { useCounterpartyWrite } from "./use-counterparty-write";
import { CsvFilePicker } from "@/components/ui/csv-file-picker";
import { counterpartiesEndpoints } from "@/lib/bff/areas/counterparties/endpoints";

/**
 * Import counterparties from a CSV file: the server checks the whole file
 * first (a dry run, nothing stored) and the dialog lists every problem by
 * line and column, or the lines it will create; "Import" then creates them
 * all as pending counterparties, or nothing when the file is wrong.
 */
export function CounterpartyImportDialog({ onClose }: { onClose: () => void }) {
  const [file, setFile] = useState<{ name: string; base64: string } | null>(null);
  const [report, setReport] = useState<CounterpartyImportView | null>(null);
  const check = useCounterpartyWrite(counterpartiesEndpoints.import, undefined, setReport);
  const run = useCounterpartyWrite(counterpartiesEndpoints.import, undefined, (r) => {
    toast.success(`${r.created.length} counterparties imported; each waits for verification by a second person.`);
    onClose();
  });

  // The file's bytes go as they are (base64): the server decodes them (BOM, UTF-8, else Windows-1252) and says which.
  async function read(f: File) {
    const base64 = toBase64(new Uint8Array(await f.arrayBuffer()));
    setFile({ name: f.name, base64 });
    setReport(null);
    run.reset();
    check.mutate({ file: base64, dryRun: true });
  }

  // A refusal of the import itself carries the same report (the file changed on the server's side, e.g. an IBAN
  // became taken since the preview).
  const refused =
    run.error instanceof BffRequestError && Array.isArray(run.error.details.errors)
      ? (run.error.details as Pick<CounterpartyImportView, "errors" | "fileErrors">)
      : null;
  const shown = refused ? { ...report, ...refused, ok: false } : report;
  const problem = check.error ?? (refused ? null : run.error);

  return (
    <Modal
      open
      wide
      onOpenChange={(o) => !o && !run.isPending && onClose()}
      title="Import counterparties from CSV"
      testId="counterparty-import"
      description={
        <>
          A header row with the columns <span className="font-mono">{COUNTERPARTY_CSV_COLUMNS.join(", ")}</span> (name
          and iban required). Every line becomes a counterparty pending verification; when any line is wrong nothing is
          imported.
        </>
      }
      footer={
        <>
          <Button onClick={onClose} disabled={run.isPending}>
            Cancel
          </Button>
          <Button
            variant="primary"
            disabled={!file || !report?.ok || refused !== null}
            pending={run.isPending}
            onClick={() => file && run.mutate({ file: file.base64 })}
            data-testid="import-counterparties"
          >
            {report?.ok ? `Import ${report.preview.length} counterparties` : "Import"}
          </Button>
        </>
      }
    >
      <CsvFilePicker
        fileName={file?.name}
        accept=".csv,text/csv,text/plain"
        testId="counterparty-csv-file"
        onFile={(f) => void read(f)}
      />
      {check.isPending && (
        <p className="mt-3 text-[13px] text-slate-600" role="status">
          Checking the file…
        </p>
      )}
      {problem && (
        <p role="alert" className="mt-3 text-[13px] text-red-700">
          {errorText(problem, "Checking the file")}
        </p>
      )}
      {shown && (
        <div className="mt-3 space-y-2" data-testid="import-report">
          <p className="text-[13px]" role="status" data-testid="import-summary">
            {shown.ok ? (
              <span className="text-emerald-700">
                All {shown.preview?.length ?? 0} lines are valid and will be created as pending counterparties.
              </span>
            ) : (
              <span className="text-red-700">
                Nothing can be imported: {shown.fileErrors.length + shown.errors.length} problem
                {shown.fileErrors.length + shown.errors.length === 1 ? "" : "s"}. Correct the file and choose it again.
              </span>
            )}
          </p>
          {shown.fileErrors.length > 0 && (
            <ul className="list-disc pl-5 text-[13px] text-red-700">
              {shown.fileErrors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          )}
          {shown.errors.length > 0 && (
            <div className="max-h-60 overflow-auto rounded-md border border-red-200">
              <table className="w-full border-collapse text-[12px]" aria-label="Problems in the file">
                <thead className="sticky top-0 bg-red-50">
                  <tr>
                    <th scope="col" className="px-2 py-1.5 text-left font-medium text-red-900">
                      Line
                    </th>
                    <th scope="col" className="px-2 py-1.5 text-left font-medium text-red-900">
                      Column
                    </th>
                    <th scope="col" className="px-2 py-1.5 text-left font-medium text-red-900">
                      Problem
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {shown.errors.map((e, i) => (
                    <tr key={i} data-testid="import-error" data-line={e.line} data-field={e.field ?? ""}>
                      <td className="border-t border-red-100 px-2 py-1 tabular">{e.line}</td>
                      <td className="border-t border-red-100 px-2 py-1 font-mono">{e.field ?? "—"}</td>
                      <td className="border-t border-red-100 px-2 py-1">
                        {e.field ?? "line"} {e.message}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {shown.ok && shown.encoding?.assumed && (
            <p className="text-[12px] text-slate-600" data-testid="import-encoding">
              The file is not UTF-8; it was read as {encodingLabel(shown.encoding.name)}. Check the names below.
            </p>
          )}
          {shown.ok && shown.preview && shown.preview.length > 0 && (
            <div className="max-h-60 overflow-auto rounded-md border border-slate-200">
              <table className="w-full border-collapse text-[12px]" aria-label="Lines to import">
                <thead className="sticky top-0 bg-slate-50">
                  <tr>
                    <th scope="col" className="px-2 py-1.5 text-left font-medium text-slate-600">
                      Line
                    </th>
                    <th scope="col" className="px-2 py-1.5 text-left font-medium text-slate-600">
                      Name
                    </th>
                    <th scope="col" className="px-2 py-1.5 text-left font-medium text-slate-600">
                      IBAN
                    </th>
                    <th scope="col" className="px-2 py-1.5 text-left font-medium text-slate-600">
                      BIC
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {shown.preview.map((p) => (
                    <tr key={p.line} data-testid="import-preview-row">
                      <td className="border-t border-slate-100 px-2 py-1 tabular text-slate-600">{p.line}</td>
                      <td className="border-t border-slate-100 px-2 py-1">{p.name}</td>
                      <td className="border-t border-slate-100 px-2 py-1 font-mono">{formatIban(p.iban)}</td>
                      <td className="border-t border-slate-100 px-2 py-1 font-mono">{p.bic ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </Modal>
  );
}

/** Base64 of bytes, in chunks (a spread of a whole file would overflow the call stack). */
function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The encoding's name as people know it. */
function encodingLabel(name: string): string {
  return name === "windows-1252" ? "Windows-1252 (Western European, ISO-8859-1)" : name.toUpperCase();
}
