"use client";

import { useRef, useState, type DragEvent } from "react";
import { FileUp, Upload, X } from "lucide-react";
import { STATEMENT_MAX_FILE_BYTES, type StatementImportResult } from "@treasury/contract/statements";
import { Button, iconButtonClass } from "@/components/ui/button";
import { ProgressBar } from "@/components/ui/progress-bar";
import { StatementError, StatementResults } from "./statement-results";
import { StatusReportResults } from "./status-report-results";
import { UploadError, uploadStatementFiles, type UploadProgress } from "./upload-request";

const MB = 1024 * 1024;
const size = (bytes: number) =>
  bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

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
          <ul className="divide-y divide-slate-100 text-[13px]" data-testid="statement-selected">
            {files.map((f) => (
              <li key={f.name} className="flex items-center justify-between gap-3 py-1.5">
                <span className="min-w-0 truncate font-mono text-xs text-slate-900">{f.name}</span>
                <span className="flex shrink-0 items-center gap-2">
                  <span
                    className={`tabular text-xs ${
                      f.size > STATEMENT_MAX_FILE_BYTES ? "font-medium " + "text-red-700" : "text-slate-500"
                    }`}
                  >
                    {size(f.size)}
                  </span>
                  <button
                    type="button"
                    onClick={() => setFiles((prev) => prev.filter((p) => p !== f))}
                    disabled={uploading}
                    className={iconButtonClass()}
                    aria-label={`Remove ${f.name}`}
                  >
                    <X className="size-3.5" aria-hidden />
                  </button>
                </span>
              </li>
            ))}
          </ul>
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
              <span className="flex items-center gap-2" data-testid="statement-progress">
                <ProgressBar
                  label="Upload progress"
                  value={state.progress.loaded}
                  max={state.progress.total || null}
                  valueText={
                    state.progress.total
                      ? `${size(state.progress.loaded)} of ${size(state.progress.total)}`
                      : size(state.progress.loaded)
                  }
                />
                <span className="tabular text-xs text-slate-600">
                  {state.progress.total && state.progress.loaded >= state.progress.total
                    ? "Importing…"
                    : `${size(state.progress.loaded)} of ${size(state.progress.total)}`}
                </span>
                <button
                  type="button"
                  onClick={() => abortRef.current?.abort()}
                  className={iconButtonClass()}
                  aria-label="Cancel upload"
                >
                  <X className="size-3.5" aria-hidden />
                </button>
              </span>
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
