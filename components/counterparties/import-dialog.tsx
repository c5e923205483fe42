"use client";

import { useState } from "react";
import { toast } from "@/components/ui/toast";
import { COUNTERPARTY_CSV_COLUMNS, type CounterpartyImportView } from "@/lib/views/counterparties";
import { BffRequestError } from "@/components/data/bff-fetch";
import { errorText } from "@/components/data/error-text";
import { Modal } from "@/components/ui/dialog";
import { ImportReport } from "./import-report";
import { useCounterpartyWrite } from "./use-counterparty-write";
import { CsvFilePicker } from "@/components/ui/csv-file-picker";
import { counterpartiesEndpoints } from "@/lib/bff/areas/counterparties/endpoints";
import { DialogFooter } from "@/components/ui/dialog-footer";

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
        <DialogFooter
          onCancel={onClose}
          pending={run.isPending}
          variant="primary"
          disabled={!file || !report?.ok || refused !== null}
          onAct={() => file && run.mutate({ file: file.base64 })}
          testId="import-counterparties"
        >
          {report?.ok ? `Import ${report.preview.length} counterparties` : "Import"}
        </DialogFooter>
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
      {shown && <ImportReport shown={shown} />}
    </Modal>
  );
}

/** Base64 of bytes, in chunks (a spread of a whole file would overflow the call stack). */
function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
