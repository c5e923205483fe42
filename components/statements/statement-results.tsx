import { AlertTriangle, CheckCircle2 } from "lucide-react";
import type { StatementFileSummary } from "@treasury/contract/statements";
import { Table, Td, Th } from "@/components/ui/table";
import type { UploadError } from "./upload-request";

const n = (v: number) => <span className="tabular">{v.toLocaleString("en-GB")}</span>;

/**
 * One row per imported file: what it held and what was stored (counts of statements, accounts, entries, balances,
 * days).
 */
export function StatementResults({ files }: { files: StatementFileSummary[] }) {
  return (
    <section aria-labelledby="import-result-h" data-testid="statement-results">
      <h2 id="import-result-h" className="mb-2 flex items-center gap-1.5 text-sm font-semibold text-slate-900">
        <CheckCircle2 className="size-4 text-emerald-600" aria-hidden /> Imported {files.length} file
        {files.length === 1 ? "" : "s"}
      </h2>
      <Table label="Imported files">
        <thead>
          <tr>
            <Th>File</Th>
            <Th>Message</Th>
            <Th align="right">Statements</Th>
            <Th align="right">Accounts matched / new</Th>
            <Th align="right">Entries</Th>
            <Th align="right">Stored</Th>
            <Th align="right">Pending</Th>
            <Th align="right">Duplicates</Th>
            <Th align="right">Balances</Th>
            <Th align="right">Days covered</Th>
            <Th>Skipped codes</Th>
          </tr>
        </thead>
        <tbody>
          {files.map((f, i) => {
            const skipped = Object.entries(f.skipped_codes);
            return (
              <tr key={`${f.file}-${i}`} data-testid="statement-result-row">
                <Td mono>{f.file}</Td>
                <Td>{f.version ?? f.message_type}</Td>
                <Td align="right">{n(f.statements)}</Td>
                <Td align="right">
                  {n(f.accounts_matched)} / {n(f.accounts_created)}
                </Td>
                <Td align="right">{n(f.entries)}</Td>
                <Td align="right">{n(f.transactions_inserted)}</Td>
                <Td align="right">
                  {n(f.pending)}
                  {f.pending_replaced > 0 && (
                    <span className="block text-xs text-slate-500">{f.pending_replaced} replaced</span>
                  )}
                </Td>
                <Td align="right">{n(f.duplicates)}</Td>
                <Td align="right">{n(f.balances + f.intraday_points)}</Td>
                <Td align="right">{n(f.coverage_days)}</Td>
                <Td>
                  {skipped.length === 0 ? (
                    <span className="text-slate-500">none</span>
                  ) : (
                    skipped.map(([code, c]) => `${code} ×${c}`).join(", ")
                  )}
                </Td>
              </tr>
            );
          })}
        </tbody>
      </Table>
      <p className="mt-2 text-xs text-slate-500">
        Stored counts booked transactions; pending entries have no booking date yet and stay out of booked sums.
        Duplicates were already stored from an earlier file.
      </p>
    </section>
  );
}

/** The refused upload: the API's message and, when it named them, the file and the element. Nothing was stored. */
export function StatementError({ error }: { error: UploadError }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-5 py-4" data-testid="statement-error">
      <div className="flex items-start gap-3">
        <AlertTriangle className="mt-0.5 size-4 shrink-0 text-red-700" aria-hidden />
        <div className="min-w-0 text-[13px] text-red-900">
          <h2 className="text-sm font-semibold">Nothing was imported</h2>
          <p className="mt-0.5">{error.message}</p>
          {(error.file || error.path) && (
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
              {error.file && (
                <>
                  <dt className="text-red-800">File</dt>
                  <dd className="font-mono">{error.file}</dd>
                </>
              )}
              {error.path && (
                <>
                  <dt className="text-red-800">Element</dt>
                  <dd className="break-all font-mono" data-testid="statement-error-path">
                    {error.path}
                  </dd>
                </>
              )}
            </dl>
          )}
          {error.requestId && <p className="mt-2 font-mono text-xs text-red-900">Request id: {error.requestId}</p>}
        </div>
      </div>
    </div>
  );
}
