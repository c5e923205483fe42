"use client";

import { X } from "lucide-react";
import { STATEMENT_MAX_FILE_BYTES } from "@treasury/contract/statements";
import { iconButtonClass } from "@/components/ui/button";
import { ProgressBar } from "@/components/ui/progress-bar";
import type { UploadProgress } from "./upload-request";

const MB = 1024 * 1024;

/** A file size as the upload shows it: `1.5 MB`, or whole KB (at least 1). */
export const fileSize = (bytes: number) =>
  bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** The files chosen for upload, each with its size (red above the per-file limit) and a remove button. */
export function SelectedFiles({
  files,
  uploading,
  onRemove,
}: {
  files: File[];
  uploading: boolean;
  onRemove: (file: File) => void;
}) {
  return (
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
              {fileSize(f.size)}
            </span>
            <button
              type="button"
              onClick={() => onRemove(f)}
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
  );
}

/** The upload's progress: bar, bytes sent of the total ("Importing…" once all are sent) and a cancel button. */
export function UploadProgressView({ progress, onCancel }: { progress: UploadProgress; onCancel: () => void }) {
  return (
    <span className="flex items-center gap-2" data-testid="statement-progress">
      <ProgressBar
        label="Upload progress"
        value={progress.loaded}
        max={progress.total || null}
        valueText={
          progress.total ? `${fileSize(progress.loaded)} of ${fileSize(progress.total)}` : fileSize(progress.loaded)
        }
      />
      <span className="tabular text-xs text-slate-600">
        {progress.total && progress.loaded >= progress.total
          ? "Importing…"
          : `${fileSize(progress.loaded)} of ${fileSize(progress.total)}`}
      </span>
      <button type="button" onClick={onCancel} className={iconButtonClass()} aria-label="Cancel upload">
        <X className="size-3.5" aria-hidden />
      </button>
    </span>
  );
}
