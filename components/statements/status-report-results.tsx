import Link from "next/link";
import type { StatementFileSummary } from "@treasury/contract/statements";
import { StatusBadge } from "@/components/payments/status-badge";

type Report = NonNullable<StatementFileSummary["status_report"]>;

/**
 * What each uploaded pain.002 status report did (docs/bank-files.md "pain.002 status reports"): the batch it answers
 * (linked), the batch's status before and after, and one line per payment whose status changed, with the bank's
 * reason code and text for a rejection. Statuses the report could not apply (the payment was already final the other
 * way) are listed apart. Renders nothing when no file was a status report. Stacks as a list, so it fits a phone.
 */
export function StatusReportResults({ files }: { files: StatementFileSummary[] }) {
  const reports = files.flatMap((f) => (f.status_report ? [{ file: f.file, report: f.status_report }] : []));
  if (reports.length === 0) return null;
  return (
    <section aria-labelledby="status-report-h" data-testid="status-report-results" className="mt-4">
      <h2 id="status-report-h" className="mb-2 text-sm font-semibold text-slate-900">
        Payment status reports
      </h2>
      <ul className="space-y-3">
        {reports.map(({ file, report }, i) => (
          <li
            key={`${file}-${i}`}
            data-testid="status-report"
            className="rounded-lg border border-slate-200 bg-white px-4 py-3 text-[13px]"
          >
            <ReportHeader file={file} report={report} />
            <ul className="mt-2 divide-y divide-slate-100" aria-label={`Payments changed by ${file}`}>
              {report.changes.map((c) => (
                <li key={c.instruction_id} data-testid="status-report-change" className="py-1.5">
                  <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <span className="break-all font-mono text-xs">{c.end_to_end_id}</span>
                    <StatusBadge status={c.from} />
                    <span aria-label="became">→</span>
                    <StatusBadge status={c.to} />
                  </div>
                  {c.reason_code && (
                    <p className="mt-0.5 text-xs text-red-800" data-testid="status-report-reason">
                      <span className="font-mono">{c.reason_code}</span>
                      {c.reason_text ? ` ${c.reason_text}` : ""}
                    </p>
                  )}
                </li>
              ))}
            </ul>
            {report.changes.length === 0 && <p className="mt-1 text-slate-600">No payment changed status.</p>}
            {report.ignored.length > 0 && (
              <p className="mt-1 text-xs text-slate-600">
                Not applied, already final:{" "}
                {report.ignored.map((g) => `${g.end_to_end_id} (${g.bank_status})`).join(", ")}
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ReportHeader({ file, report }: { file: string; report: Report }) {
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <span className="break-all font-mono text-xs text-slate-700">{file}</span>
      <span className="text-slate-600">answers</span>
      <Link href={`/payments/${report.batch_id}`} className="font-medium text-sky-800 underline underline-offset-2">
        batch {report.batch_id.slice(0, 8)}
      </Link>
      <StatusBadge status={report.batch_status_from} />
      <span aria-label="became">→</span>
      <StatusBadge status={report.batch_status_to} />
    </div>
  );
}
