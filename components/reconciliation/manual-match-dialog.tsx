"use client";

import { useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Decimal from "decimal.js";
import type { MatchCandidate, UnmatchedRow } from "@/lib/views/unmatched";
import { callBff } from "@/components/data/bff-fetch";
import { reconciliationEndpoints } from "@/lib/bff/areas/reconciliation/endpoints";
import { errorText } from "@/components/data/error-text";
import { useOperationKey } from "@/components/data/operation-key";
import { Amount, BusinessDate } from "@/components/format/amount";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toast";
import { invalidateReconciliation } from "./match-queries";
import { unmatchedQueries } from "./unmatched-queries";

/** Waits this long after the last keystroke before searching. */
const SEARCH_DELAY_MS = 300;

function useDebounced(value: string, ms: number): string {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** The instruction and the transaction of a pair, whichever side the dialog started from. */
function sides(item: UnmatchedRow, other: MatchCandidate) {
  return item.kind === "instruction"
    ? { instruction: item, transaction: other }
    : { instruction: other, transaction: item };
}

/**
 * Matches one unmatched item by hand: first pick its counterpart (unmatched items of the other kind in the same
 * company and currency, closest amount and date first, or found by a search), then confirm in a summary that names
 * both sides and the amount difference, with an optional note. The match is created confirmed; every
 * reconciliation view is refreshed after.
 */
export function ManualMatchDialog({ item, onClose }: { item: UnmatchedRow; onClose: () => void }) {
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const [chosen, setChosen] = useState<MatchCandidate | null>(null);
  const [step, setStep] = useState<"pick" | "confirm">("pick");
  const [note, setNote] = useState("");
  const op = useOperationKey();
  const qc = useQueryClient();
  const candidates = useQuery(
    unmatchedQueries.candidates({
      for_kind: item.kind === "transaction" ? "transaction" : "instruction",
      company_id: item.company_id,
      currency: item.currency,
      amount: item.amount,
      date: item.date,
      ...(q ? { q } : {}),
    }),
  );
  const create = useMutation({
    mutationFn: (pair: { instruction: { id: string }; transaction: { id: string } }) =>
      callBff(reconciliationEndpoints.manualMatch, {
        idempotencyKey: op.key,
        body: {
          instruction_id: pair.instruction.id,
          transaction_id: pair.transaction.id,
          company_id: item.company_id,
          ...(note.trim() ? { note: note.trim() } : {}),
        },
      }),
    onSuccess: async () => {
      op.renew();
      toast.success("Matched. The match is confirmed and listed under Decided.");
      onClose();
      await invalidateReconciliation(qc);
    },
  });
  const payments = item.kind === "instruction";
  const otherNoun = payments ? "bank debit" : "payment";

  if (step === "confirm" && chosen) {
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
            <Button onClick={() => setStep("pick")} disabled={create.isPending}>
              Back
            </Button>
            <Button
              variant="primary"
              onClick={() => create.mutate(pair)}
              disabled={create.isPending}
              data-testid="confirm-manual-match"
            >
              {create.isPending ? "Matching…" : "Confirm match"}
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
            onChange={(e) => setNote(e.target.value)}
            maxLength={500}
            rows={2}
            className="rounded-md border border-slate-300 px-2 py-1 text-[13px] text-slate-900"
            data-testid="manual-match-note"
          />
        </label>
        {create.isError && (
          <p role="alert" className="mt-3 text-[13px] text-red-700">
            {errorText(create.error, "The match")}
          </p>
        )}
      </Modal>
    );
  }

  const list = candidates.data?.items ?? [];
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Match by hand: pick the ${otherNoun}`}
      description={
        <>
          {payments ? "Payment to " : "Bank debit from "}
          <strong>{item.counterparty_name || "—"}</strong>, <Amount value={item.amount} currency={item.currency} />,{" "}
          <BusinessDate date={item.date} /> ({item.company_name}). Unmatched {otherNoun}s of the same company and
          currency, closest amount and date first.
        </>
      }
      testId="manual-match-pick"
      wide
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="primary"
            disabled={!chosen}
            onClick={() => setStep("confirm")}
            data-testid="manual-match-next"
          >
            Review match
          </Button>
        </>
      }
    >
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
        Search {otherNoun}s (beyond the nearby amounts and dates)
        <input
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="Name or reference"
          maxLength={100}
          className="h-9 rounded-md border border-slate-300 px-2 text-[13px] text-slate-900 placeholder:text-slate-500"
          data-testid="manual-match-search"
        />
      </label>
      <div className="mt-3" aria-live="polite">
        {candidates.isPending ? (
          <p className="text-[13px] text-slate-600">Looking for {otherNoun}s…</p>
        ) : candidates.isError ? (
          <p role="alert" className="text-[13px] text-red-700">
            {errorText(candidates.error, "The search")}
          </p>
        ) : list.length === 0 ? (
          <p className="text-[13px] text-slate-600" data-testid="manual-match-none">
            No unmatched {otherNoun} {q ? "matches this search" : "is near this amount and date"}. Try a search.
          </p>
        ) : (
          <fieldset>
            <legend className="sr-only">Counterpart</legend>
            <ul className="max-h-72 space-y-1 overflow-y-auto">
              {list.map((c) => (
                <li key={c.id}>
                  <label
                    className={
                      "flex min-h-11 cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 rounded-md border px-3 py-2 " +
                      "text-[13px] " +
                      (chosen?.id === c.id ? "border-slate-900 bg-slate-50" : "border-slate-200 hover:bg-slate-50")
                    }
                    data-testid="manual-match-candidate"
                  >
                    <input
                      type="radio"
                      name="counterpart"
                      className="size-4"
                      checked={chosen?.id === c.id}
                      onChange={() => setChosen(c)}
                    />
                    <span className="min-w-40 flex-1 font-medium text-slate-900">{c.counterparty_name || "—"}</span>
                    <Amount value={c.amount} currency={c.currency} />
                    <span className="text-slate-600">
                      <BusinessDate date={c.date} />
                    </span>
                    <span className="w-full text-xs text-slate-600 sm:w-auto">
                      {new Decimal(c.amount_difference).isZero() ? (
                        "same amount"
                      ) : (
                        <Amount value={c.amount_difference} currency={c.currency} signed />
                      )}
                      {" · "}
                      {c.days_apart === 0 ? "same day" : `${c.days_apart} ${c.days_apart === 1 ? "day" : "days"} apart`}
                      {c.end_to_end_id || c.remittance ? ` · ${c.end_to_end_id ?? c.remittance}` : ""}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        )}
      </div>
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
