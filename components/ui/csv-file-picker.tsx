"use client";

import { FileUp } from "lucide-react";

/**
 * The "Choose a CSV file" drop-in of the CSV import dialogs: a dashed label around a visually hidden file input,
 * naming the chosen file once there is one. `onFile` gets the first picked file.
 */
export function CsvFilePicker({
  fileName,
  accept,
  testId,
  onFile,
}: {
  fileName: string | null | undefined;
  accept: string;
  testId: string;
  onFile: (file: File) => void;
}) {
  return (
    <label
      className={
        // relative: the hidden input (absolute, sr-only) stays inside the label; without it, it was placed against
        // the page and, far down a scrolling page, made the whole window scroll into blank space (/reports/forecast
        // at 1440 px was 4,937 px tall). focus-within: the keyboard focus on the hidden input shows on the label.
        "relative flex cursor-pointer items-center gap-2 rounded-md border " +
        "border-dashed border-slate-300 px-4 py-3 text-[13px] text-slate-700 hover:bg-slate-50 " +
        "focus-within:ring-2 focus-within:ring-sky-600"
      }
    >
      <FileUp className="size-4 text-slate-500" aria-hidden />
      <span>{fileName ? `${fileName} — choose another file` : "Choose a CSV file"}</span>
      <input
        type="file"
        accept={accept}
        className="sr-only"
        data-testid={testId}
        onChange={(e) => e.target.files?.[0] && onFile(e.target.files[0])}
      />
    </label>
  );
}
