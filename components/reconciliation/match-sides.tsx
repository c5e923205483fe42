"use client";

import type { MatchReviewRow } from "@/lib/views/reconciliation";
import { signedAmount } from "@/lib/money";
import { Amount } from "@/components/format/amount";
import { BusinessDate, Timestamp } from "@/components/format/business-date";
import { StatusBadge } from "@/components/payments/status-badge";

/** The payment instruction of a match (what was meant to be paid). */
export function InstructionSide({ row }: { row: MatchReviewRow }) {
  const i = row.instruction;
  if (!i) return <span className="text-slate-500">Instruction not readable</span>;
  return (
    <div className="space-y-0.5">
      <div className="flex justify-between gap-3">
        <span className="font-medium text-slate-900">{i.creditor_name}</span>
        <Amount value={i.amount} currency={i.currency} />
      </div>
      <div className="font-mono text-xs text-slate-500">
        {i.end_to_end_id} · {i.creditor_iban}
      </div>
    </div>
  );
}

/** The bank transaction of a match (what the statement says): counterparty, signed amount, booking and value dates. */
export function TransactionSide({ row }: { row: MatchReviewRow }) {
  const t = row.transaction;
  if (!t) return <span className="text-slate-500">Transaction not readable</span>;
  return (
    <div className="space-y-0.5">
      <div className="flex justify-between gap-3">
        <span className="font-medium text-slate-900">{t.counterparty_name}</span>
        <Amount value={signedAmount(t.amount, t.direction)} currency={t.currency} />
      </div>
      <div className="text-xs text-slate-500" data-testid="match-dates">
        Booked <BusinessDate date={t.booked_date ?? t.booked_at.slice(0, 10)} /> · Value{" "}
        <BusinessDate date={t.value_date ?? t.value_at.slice(0, 10)} />
      </div>
      <div className="font-mono text-xs break-all text-slate-500">{t.remittance}</div>
    </div>
  );
}

/**
 * How a match was decided (the decided tab): state, when, by whom and why.
 * Who and why come from the dashboard's audit log (the spec's confirm /
 * reject carry no body), else from the API's reviewer / reason extension.
 */
export function DecisionInfo({ row }: { row: MatchReviewRow }) {
  const at = row.decision?.at ?? row.match.decided_at;
  // A rule's confirmation is named by AutoConfirmInfo ("Confirmed by rule …"), not as a reviewer.
  const by = row.auto_confirmation ? null : (row.decision?.email ?? row.match.reviewer);
  const reason = row.auto_confirmation ? null : (row.decision?.reason ?? row.match.reason);
  return (
    <div className="max-w-60 space-y-0.5">
      <StatusBadge status={row.match.state} />
      {row.match.origin === "manual" && (
        <div className="text-xs font-medium text-slate-700" data-testid="match-manual">
          Matched by hand
        </div>
      )}
      {at && (
        <div className="text-xs">
          <Timestamp value={at} />
        </div>
      )}
      {by && (
        <div className="text-xs" data-testid="match-reviewer">
          by {by}
        </div>
      )}
      {reason && (
        <div className="text-xs text-slate-700" data-testid="match-reason">
          Reason: {reason}
        </div>
      )}
    </div>
  );
}
