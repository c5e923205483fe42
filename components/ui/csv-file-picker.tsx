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
        "flex cursor-pointer items-center gap-2 rounded-md border " +
        "border-dashed border-slate-300 px-4 py-3 text-[13px] text-slate-700 hover:bg-slate-50"
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
