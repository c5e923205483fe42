"use client";

import type { MatchReviewRow } from "@/lib/bff/queries/match-views";
import { signedAmount } from "@/lib/money";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";

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
      <div className="font-mono text-[11px] text-slate-500">{i.end_to_end_id} · {i.creditor_iban}</div>
    </div>
  );
}

/** The bank transaction of a match (what the statement says). */
export function TransactionSide({ row }: { row: MatchReviewRow }) {
  const t = row.transaction;
  if (!t) return <span className="text-slate-500">Transaction not readable</span>;
  return (
    <div className="space-y-0.5">
      <div className="flex justify-between gap-3">
        <span className="font-medium text-slate-900">{t.counterparty_name}</span>
        <Amount value={signedAmount(t.amount, t.direction)} currency={t.currency} />
      </div>
      <div className="text-[11px] text-slate-500">
        <BusinessDate date={t.booked_at.slice(0, 10)} /> · <span className="font-mono">{t.remittance}</span>
      </div>
    </div>
  );
}
