"use client";

import type { CounterpartyImportView } from "@/lib/views/counterparties";
import { formatIban } from "./status-badge";
import { HeaderCells } from "@/components/ui/header-cells";

/** The report of an import as the dialog shows it: the server's dry run, or the refusal of the import itself. */
export type ShownImportReport = Pick<CounterpartyImportView, "ok" | "errors" | "fileErrors"> &
  Partial<Pick<CounterpartyImportView, "preview" | "encoding">>;

/**
 * The import dialog's report (components/counterparties/import-dialog.tsx): whether the file can be imported, the
 * file's and each line's problems (line, column, message), the encoding assumed, and the lines it will create.
 */
export function ImportReport({ shown }: { shown: ShownImportReport }) {
  return (
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
                <HeaderCells
                  cells={["Line", "Column", "Problem"]}
                  className="px-2 py-1.5 text-left font-medium text-red-900"
                />
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
                <HeaderCells
                  cells={["Line", "Name", "IBAN", "BIC"]}
                  className="px-2 py-1.5 text-left font-medium text-slate-600"
                />
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
  );
}

/** The encoding's name as people know it. */
function encodingLabel(name: string): string {
  return name === "windows-1252" ? "Windows-1252 (Western European, ISO-8859-1)" : name.toUpperCase();
}
