"use client";

import Decimal from "decimal.js";
import type { MatchCandidate, UnmatchedRow } from "@/lib/views/unmatched";
import { errorText } from "@/components/data/error-text";
import { Amount, BusinessDate } from "@/components/format/amount";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";

/** The instruction and the transaction of a pair, whichever side the dialog started from. */
export function sides(item: UnmatchedRow, other: MatchCandidate) {
  return item.kind === "instruction"
    ? { instruction: item, transaction: other }
    : { instruction: other, transaction: item };
}

/**
 * The manual match's second step (docs/guides/reconciliation.md): both sides of the pair, the amount difference in
 * words, an optional note, and Confirm (`onConfirm` with the pair) or Back; `pending` while the match is created,
 * `error` its refusal.
 */
export function ManualMatchConfirm({
  item,
  chosen,
  note,
  onNote,
  pending,
  error,
  onBack,
  onConfirm,
  onClose,
}: {
  item: UnmatchedRow;
  chosen: MatchCandidate;
  note: string;
  onNote: (note: string) => void;
  pending: boolean;
  error: unknown;
  onBack: () => void;
  onConfirm: (pair: ReturnType<typeof sides>) => void;
  onClose: () => void;
}) {
  const pair = sides(item, chosen);
  const diff = new Decimal(pair.transaction.amount).minus(pair.instruction.amount);
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title="Confirm this match"
      description="The match is created confirmed: the payment counts as reconciled with the bank debit."
      testId="manual-match-confirm"
      wide
      footer={
        <>
          <Button onClick={onBack} disabled={pending}>
            Back
          </Button>
          <Button
            variant="primary"
            onClick={() => onConfirm(pair)}
            disabled={pending}
            data-testid="confirm-manual-match"
          >
            {pending ? "Matching…" : "Confirm match"}
          </Button>
        </>
      }
    >
      <dl className="grid gap-3 text-[13px] sm:grid-cols-2">
        <Side title="Payment" row={pair.instruction} />
        <Side title="Bank debit" row={pair.transaction} />
      </dl>
      <p
        className={`mt-3 rounded-md px-3 py-2 text-[13px] ${diff.isZero() ? "bg-emerald-50 text-emerald-900" : "bg-amber-50 text-amber-900"}`}
        data-testid="manual-match-difference"
      >
        {diff.isZero() ? (
          "The amounts are equal."
        ) : (
          <>
            The bank debit is <Amount value={diff.abs().toFixed(2)} currency={item.currency} />{" "}
            {diff.isNegative() ? "less" : "more"} than the payment (for example a bank fee).
          </>
        )}
      </p>
      <label className="mt-3 flex flex-col gap-1 text-xs font-medium text-slate-600">
        Note (optional, kept with the match)
        <textarea
          value={note}
          onChange={(e) => onNote(e.target.value)}
          maxLength={500}
          rows={2}
          className="rounded-md border border-slate-300 px-2 py-1 text-[13px] text-slate-900"
          data-testid="manual-match-note"
        />
      </label>
      {error !== null && (
        <p role="alert" className="mt-3 text-[13px] text-red-700">
          {errorText(error, "The match")}
        </p>
      )}
    </Modal>
  );
}

/** One side of the pair in the confirmation. */
function Side({ title, row }: { title: string; row: UnmatchedRow }) {
  return (
    <div className="rounded-md border border-slate-200 p-3" data-testid={`manual-match-side-${row.kind}`}>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{title}</dt>
      <dd className="mt-1 space-y-0.5">
        <p className="font-medium text-slate-900">{row.counterparty_name || "—"}</p>
        <p>
          <Amount value={row.amount} currency={row.currency} />
        </p>
        <p className="text-slate-600">
          {row.kind === "instruction" ? "Settled " : "Value date "}
          <BusinessDate date={row.date} />
          {row.account_name ? ` · ${row.account_name}` : ""}
        </p>
        {(row.end_to_end_id || row.remittance) && (
          <p className="break-all font-mono text-xs text-slate-600">{row.end_to_end_id ?? row.remittance}</p>
        )}
      </dd>
    </div>
  );
}
