"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, Info, ShieldAlert } from "lucide-react";
import type { BatchRisk, RiskSignalView } from "@/lib/views/payments";
import type { RiskSeverity, RiskSignalCode } from "@/lib/payments/risk-signals";
import { renderSignalMessage } from "@/lib/payments/signal-message";
import { formatMoney } from "@/lib/money";
import { useLocale } from "@/components/format/use-locale";
import { Amount } from "@/components/format/amount";
import { BatchName } from "@/components/payments/batch-name";
import { BusinessDate } from "@/components/format/business-date";
import { errorText } from "@/components/data/error-text";
import { StatusBadge } from "@/components/payments/status-badge";
import { riskQueries } from "./risk-queries";
import { HeaderCells, type HeaderCell } from "@/components/ui/header-cells";

/** Short names of the signals, for badges and acknowledgements. */
export const SIGNAL_LABEL: Record<RiskSignalCode, string> = {
  new_payee: "New payee",
  unverified_counterparty: "Not a verified counterparty",
  bank_details_changed: "Bank details changed",
  possible_duplicate: "Possible duplicate",
  amount_outlier: "Unusual amount",
  insufficient_funds: "Insufficient funds",
  non_banking_day: "Non-banking day",
};

/** Shorter names for the queue's badges (the full name is the badge's title and in the signal list). */
const BADGE_LABEL: Record<RiskSignalCode, string> = {
  new_payee: "New payee",
  unverified_counterparty: "Unverified",
  bank_details_changed: "Bank details changed",
  possible_duplicate: "Possible duplicate",
  amount_outlier: "Unusual amount",
  insufficient_funds: "Insufficient funds",
  non_banking_day: "Non-banking day",
};

const TONE: Record<RiskSeverity, string> = {
  high: "bg-red-50 text-red-800 ring-red-300",
  medium: "bg-amber-50 text-amber-900 ring-amber-300",
  low: "bg-slate-100 text-slate-700 ring-slate-300",
};

function SeverityIcon({ severity }: { severity: RiskSeverity }) {
  const cls = "size-3.5 shrink-0";
  if (severity === "high") return <ShieldAlert className={cls} aria-hidden />;
  if (severity === "medium") return <AlertTriangle className={cls} aria-hidden />;
  return <Info className={cls} aria-hidden />;
}

/** One badge per kind of signal (with a count when several instructions raise it), highest severity first. */
export function RiskBadges({ risk }: { risk: BatchRisk | null }) {
  if (!risk) return <span className="text-xs text-slate-500">signals unavailable</span>;
  if (risk.signals.length === 0)
    return (
      <span className="text-xs text-emerald-700" data-testid="risk-none">
        no risk signals
      </span>
    );
  const order: RiskSeverity[] = ["high", "medium", "low"];
  const byCode = new Map<RiskSignalCode, { severity: RiskSeverity; n: number }>();
  for (const s of risk.signals) {
    const e = byCode.get(s.code);
    byCode.set(s.code, { severity: s.severity, n: (e?.n ?? 0) + 1 });
  }
  const list = [...byCode].sort((a, b) => order.indexOf(a[1].severity) - order.indexOf(b[1].severity));
  return (
    <span className="flex max-w-64 flex-wrap gap-1" data-testid="risk-badges">
      {list.map(([code, { severity, n }]) => (
        <span
          key={code}
          data-code={code}
          data-severity={severity}
          title={SIGNAL_LABEL[code]}
          className={
            "inline-flex items-center gap-1 whitespace-nowrap rounded " +
            `px-1 py-px text-xs font-medium ring-1 ring-inset ${TONE[severity]}`
          }
        >
          <SeverityIcon severity={severity} />
          {BADGE_LABEL[code]}
          {n > 1 ? ` ×${n}` : ""}
          <span className="sr-only">({severity} risk)</span>
        </span>
      ))}
    </span>
  );
}

function words(key: string): string {
  return key.replaceAll("_", " ");
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return "—";
  if (Array.isArray(v)) return v.map(scalar).join(", ");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** A signal's evidence as labelled values; a list of records reads as one line per record. */
function Evidence({ evidence }: { evidence: Record<string, unknown> }) {
  const entries = Object.entries(evidence);
  if (entries.length === 0) return null;
  return (
    <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-slate-800" data-testid="risk-evidence">
      {entries.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-slate-700">{words(k)}</dt>
          <dd className="min-w-0 break-words font-mono">
            {Array.isArray(v) && v.some((x) => typeof x === "object" && x !== null) ? (
              <ul className="space-y-0.5">
                {v.map((x, i) => (
                  <li key={i}>
                    {Object.entries(x as Record<string, unknown>)
                      .map(([kk, vv]) => `${words(kk)}: ${scalar(vv)}`)
                      .join(" · ")}
                  </li>
                ))}
              </ul>
            ) : (
              scalar(v)
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The company's last 12 payments to `iban`, loaded when opened. */
function PayeeHistory({ companyId, batchId, iban }: { companyId: string; batchId: string; iban: string }) {
  const q = useQuery(riskQueries.payee(companyId, batchId, iban));
  if (q.isPending) return <p className="mt-1 text-xs text-slate-500">Loading the payment history…</p>;
  if (q.isError)
    return <p className="mt-1 text-xs text-red-700">{errorText(q.error, "Loading the payment history")}</p>;
  if (q.data.payments.length === 0)
    return <p className="mt-1 text-xs text-slate-600">No earlier payments to {iban}.</p>;
  return (
    <table className="mt-1 w-full max-w-xl border-collapse text-xs" aria-label={`Last payments to ${iban}`}>
      <thead>
        <tr className="text-left text-slate-700">
          <HeaderCells cells={PAYEE_HISTORY_COLUMNS} className="pr-2 font-medium" />
        </tr>
      </thead>
      <tbody data-testid="payee-history">
        {q.data.payments.map((p) => (
          <tr key={`${p.batch_id}-${p.end_to_end_id}`}>
            <td className="pr-2">
              <BusinessDate date={p.date} style="short" />
            </td>
            <td className="pr-2">{p.creditor_name}</td>
            <td className="pr-2">
              <BatchName id={p.batch_id} reference={p.batch_reference} />
            </td>
            <td className="pr-2">
              <StatusBadge status={p.status} />
              {p.reason ? (
                <span className="ml-1 text-xs text-slate-600" data-testid="payee-history-reason">
                  {p.reason}
                  {p.reason_text ? ` — ${p.reason_text}` : ""}
                </span>
              ) : null}
            </td>
            <td className="text-right">
              <Amount value={p.amount} currency={p.currency} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const PAYEE_HISTORY_COLUMNS: readonly HeaderCell[] = [
  "Date",
  "Creditor",
  "Batch",
  "Status",
  { label: "Amount", key: "Amount", className: "text-right font-medium" },
];

/** The signal's sentence with its amounts formatted like every other amount of the app (the viewer's locale). */
function SignalSentence({ s }: { s: RiskSignalView }) {
  const locale = useLocale();
  if (!s.message_template || !s.message_amounts) return <>{s.message}</>;
  return (
    <>
      {renderSignalMessage(s.message_template, s.message_amounts, (a) => formatMoney(a.amount, a.currency, { locale }))}
    </>
  );
}

/**
 * One signal on one line: severity icon, its name and its sentence. The evidence and the payee's last payments are
 * folded under "Details" (closed by default), so a batch's payments stay in view.
 */
function SignalItem({ s, companyId, batchId }: { s: RiskSignalView; companyId: string; batchId: string }) {
  const [history, setHistory] = useState(false);
  return (
    <li
      className={`rounded px-2 py-1 ring-1 ring-inset ${TONE[s.severity]}`}
      data-testid="risk-signal"
      data-code={s.code}
      data-severity={s.severity}
    >
      <details className="group">
        <summary className="flex cursor-pointer list-none items-start gap-1.5 text-[13px] [overflow-wrap:anywhere] [&::-webkit-details-marker]:hidden">
          <SeverityIcon severity={s.severity} />
          <span className="min-w-0 flex-1">
            <span className="font-medium">{SIGNAL_LABEL[s.code]}</span>
            <span className="sr-only"> ({s.severity} risk)</span>
            {": "}
            <span data-testid="risk-message">
              <SignalSentence s={s} />
            </span>
          </span>
          <span className="shrink-0 text-xs text-slate-600 underline-offset-2 group-open:hidden hover:underline">
            Details
          </span>
          <span className="hidden shrink-0 text-xs text-slate-600 group-open:inline">Hide</span>
        </summary>
        <div className="mt-1 border-t border-current/10 pt-1">
          <p className="text-xs text-slate-700">
            Severity {s.severity}
            {s.end_to_end_id ? ` · end-to-end id ${s.end_to_end_id}` : ""}
          </p>
          <Evidence evidence={s.evidence} />
          {s.creditor_iban && (
            <div className="mt-1">
              <button
                type="button"
                className="text-left text-xs text-sky-800 underline-offset-2 [overflow-wrap:anywhere] hover:underline"
                aria-expanded={history}
                onClick={() => setHistory((h) => !h)}
                data-testid="payee-history-toggle"
              >
                {history ? "Hide" : "Show"} the last payments to {s.creditor_iban}
              </button>
              {history && <PayeeHistory companyId={companyId} batchId={batchId} iban={s.creditor_iban} />}
            </div>
          )}
        </div>
      </details>
    </li>
  );
}

/**
 * The batch's signals, each with its sentence, evidence (folded) and, for
 * an instruction's signal, the payee's last payments opened in place.
 */
export function RiskSignalList({ risk }: { risk: BatchRisk }) {
  if (risk.signals.length === 0)
    return (
      <p className="text-[13px] text-emerald-800" data-testid="risk-none">
        No risk signals: every payee was paid before, nothing looks duplicated and the account covers the total.
      </p>
    );
  return (
    <ul className="space-y-1" data-testid="risk-signals" aria-label="Risk signals">
      {risk.signals.map((s, i) => (
        <SignalItem
          key={`${s.code}-${s.instruction ?? "b"}-${i}`}
          s={s}
          companyId={risk.company_id}
          batchId={risk.batch_id}
        />
      ))}
    </ul>
  );
}

/** A queued batch's risk signals, or (`risk` null: the API could not compute them) a line saying to open the batch. */
export function RiskSignalsOrRetry({ risk }: { risk: BatchRisk | null }) {
  return risk ? (
    <RiskSignalList risk={risk} />
  ) : (
    <p className="text-[13px] text-amber-800">The risk signals could not be computed; open the batch to retry.</p>
  );
}

/** The signals of a batch read on their own (the batch page): loading and failure states included. */
export function BatchRiskPanel({ companyId, batchId }: { companyId: string; batchId: string }) {
  const q = useQuery(riskQueries.batch(companyId, batchId));
  if (q.isPending) return <p className="text-[13px] text-slate-500">Checking the batch for risk signals…</p>;
  if (q.isError)
    return (
      <p className="text-[13px] text-red-700" data-testid="risk-error">
        {errorText(q.error, "Checking the risk signals")}
      </p>
    );
  return (
    <div className="space-y-2">
      <RiskBadges risk={q.data} />
      <RiskSignalList risk={q.data} />
      {q.data.debtor_account && (
        <p className="text-[12px] text-slate-600" data-testid="risk-debtor">
          Paid from {q.data.debtor_account.name}
          {q.data.debtor_account.available_balance !== null && (
            <>
              {" "}
              · available{" "}
              <Amount value={q.data.debtor_account.available_balance} currency={q.data.debtor_account.currency} />
            </>
          )}
        </p>
      )}
    </div>
  );
}
