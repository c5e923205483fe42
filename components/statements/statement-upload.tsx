"use client";

import { useRef, useState, type DragEvent } from "react";
import { FileUp, Upload } from "lucide-react";
import { STATEMENT_MAX_FILE_BYTES, type StatementImportResult } from "@treasury/contract/statements";
import { Button } from "@/components/ui/button";
import { StatementError, StatementResults } from "./statement-results";
import { StatusReportResults } from "./status-report-results";
import { SelectedFiles, UploadProgressView } from "./upload-parts";
import { UploadError, uploadStatementFiles, type UploadProgress } from "./upload-request";

const MB = 1024 * 1024;

type State =
  | { kind: "idle" }
  | { kind: "uploading"; progress: UploadProgress }
  | { kind: "done"; result: StatementImportResult }
  | { kind: "failed"; error: UploadError };

/**
 * Drop or pick camt.052 / camt.053 / camt.054, MT940 / MT942 or BAI2 files, upload them in one
 * request (the API stores all or nothing) with a progress bar, then the
 * per-file summary or the element the API refused.
 */
export function StatementUpload({ companyName }: { companyName: string }) {
  const [files, setFiles] = useState<File[]>([]);
  const [state, setState] = useState<State>({ kind: "idle" });
  const [over, setOver] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const uploading = state.kind === "uploading";
  const tooBig = files.filter((f) => f.size > STATEMENT_MAX_FILE_BYTES);

  function add(list: FileList | null) {
    if (!list || list.length === 0) return;
    const picked = Array.from(list);
    setFiles((prev) => [...prev.filter((p) => !picked.some((f) => f.name === p.name)), ...picked]);
    setState({ kind: "idle" });
  }

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setOver(false);
    if (!uploading) add(e.dataTransfer.files);
  }

  async function upload() {
    const ac = new AbortController();
    abortRef.current = ac;
    setState({ kind: "uploading", progress: { loaded: 0, total: files.reduce((s, f) => s + f.size, 0) } });
    try {
      const result = await uploadStatementFiles(
        files,
        crypto.randomUUID(),
        (progress) => setState({ kind: "uploading", progress }),
        ac.signal,
      );
      setState({ kind: "done", result });
      setFiles([]);
    } catch (err) {
      setState({
        kind: "failed",
        error: err instanceof UploadError ? err : new UploadError("The upload failed.", 0, null, null, null),
      });
    } finally {
      abortRef.current = null;
    }
  }

  return (
    <div className="space-y-5">
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={
          `rounded-lg border-2 border-dashed px-6 py-8 text-center transition-colors ` +
          `${over ? "border-sky-500 bg-sky-50" : "border-slate-300 bg-white"}`
        }
        data-testid="statement-dropzone"
      >
        <FileUp className="mx-auto mb-2 size-6 text-slate-400" aria-hidden />
        <p className="text-sm font-medium text-slate-900">Drop statement files here</p>
        <p className="mx-auto mt-1 max-w-2xl text-[13px] text-slate-600">
          ISO 20022 camt.053 statements, camt.052 intraday reports and camt.054 notifications, MT940 statements, MT942
          interim reports and BAI2 files (.xml, .sta, .mt940, .txt, .bai, .bai2; the format is detected per file), up to{" "}
          {STATEMENT_MAX_FILE_BYTES / MB} MB each. They are imported for {companyName}, all files together or none.
        </p>
        <input
          ref={inputRef}
          id="statement-files"
          type="file"
          multiple
          accept=".xml,.sta,.mt940,.mt942,.940,.942,.txt,.bai,.bai2,application/xml,text/xml,text/plain"
          className="sr-only"
          aria-label="Statement files"
          onChange={(e) => {
            add(e.target.files);
            e.target.value = "";
          }}
          disabled={uploading}
          data-testid="statement-input"
        />
        <Button className="mt-4" onClick={() => inputRef.current?.click()} disabled={uploading}>
          Choose files
        </Button>
      </div>

      {files.length > 0 && (
        <section aria-labelledby="selected-h" className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="selected-h" className="mb-2 text-sm font-semibold text-slate-900">
            Selected files
          </h2>
          <SelectedFiles
            files={files}
            uploading={uploading}
            onRemove={(f) => setFiles((prev) => prev.filter((p) => p !== f))}
          />
          {tooBig.length > 0 && (
            <p className="mt-2 text-xs text-red-700">
              Files over {STATEMENT_MAX_FILE_BYTES / MB} MB cannot be imported; remove them first.
            </p>
          )}
          <div className="mt-3 flex items-center gap-3">
            <Button
              variant="primary"
              onClick={upload}
              pending={uploading}
              disabled={tooBig.length > 0}
              data-testid="statement-upload"
            >
              <Upload className="size-4" aria-hidden /> Import {files.length} file{files.length === 1 ? "" : "s"}
            </Button>
            {state.kind === "uploading" && (
              <UploadProgressView progress={state.progress} onCancel={() => abortRef.current?.abort()} />
            )}
          </div>
        </section>
      )}

      {state.kind === "done" && (
        <>
          <StatementResults files={state.result.files} />
          <StatusReportResults files={state.result.files} />
        </>
      )}
      {state.kind === "failed" && <StatementError error={state.error} />}
    </div>
  );
}
