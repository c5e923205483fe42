"use client";

import { useRef, useState } from "react";
import { Download, X } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { ProgressBar } from "@/components/ui/progress-bar";
import { fileNameFrom, readCsvWithProgress, type DownloadProgress } from "./download-progress";
import { iconButtonClass } from "@/components/ui/button";

/**
 * Downloads a CSV from a BFF export route with a progress bar, since a large
 * export takes a while. `href` is the export URL of the current filter; the download can be
 * cancelled, which aborts the request and so stops the server's stream.
 */
export function CsvExportButton({
  href,
  fileName,
  label = "Export CSV",
}: {
  href: string;
  fileName: string;
  label?: string;
}) {
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  async function run() {
    const ac = new AbortController();
    abortRef.current = ac;
    setProgress({ rows: 0, total: null, bytes: 0 });
    try {
      const res = await fetch(href, { credentials: "same-origin", signal: ac.signal, headers: { Accept: "text/csv" } });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { message?: string };
        throw new Error(body.message ?? `The export failed (${res.status}).`);
      }
      const blob = await readCsvWithProgress(res, setProgress);
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = fileNameFrom(res, fileName);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      if (!ac.signal.aborted) toast.error(err instanceof Error ? err.message : "The export failed.");
    } finally {
      abortRef.current = null;
      setProgress(null);
    }
  }

  if (progress) {
    return (
      <div className="flex items-center gap-2" data-testid="csv-progress">
        <ProgressBar
          label="CSV export progress"
          value={progress.rows}
          max={progress.total}
          valueText={progress.total ? `${progress.rows} of ${progress.total} rows` : `${progress.rows} rows`}
        />
        <span className="text-xs tabular text-slate-600">
          {progress.rows.toLocaleString()}
          {progress.total ? ` / ${progress.total.toLocaleString()}` : ""} rows
        </span>
        <button
          type="button"
          onClick={() => abortRef.current?.abort()}
          className={iconButtonClass()}
          aria-label="Cancel export"
        >
          <X className="size-3.5" aria-hidden />
        </button>
      </div>
    );
  }
  return (
    <button
      type="button"
      onClick={run}
      className={
        "inline-flex h-8 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 " +
        "text-[13px] font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 " +
        "focus-visible:outline-sky-600"
      }
    >
      <Download className="size-3.5" aria-hidden />
      {label}
    </button>
  );
}
