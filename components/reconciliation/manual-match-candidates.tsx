"use client";

import Decimal from "decimal.js";
import type { MatchCandidate } from "@/lib/views/unmatched";
import { errorText } from "@/components/data/error-text";
import { Amount, BusinessDate } from "@/components/format/amount";

/**
 * The counterparts offered for a manual match: a line while they are looked for, the refusal, a "none" line (`q`: the
 * search, when there is one), or one radio per candidate with its amount difference, days apart and reference.
 */
export function ManualMatchCandidates({
  candidates,
  otherNoun,
  q,
  chosen,
  onChoose,
}: {
  candidates: { isPending: boolean; isError: boolean; error: unknown; data?: { items: MatchCandidate[] } };
  otherNoun: string;
  q: string;
  chosen: MatchCandidate | null;
  onChoose: (c: MatchCandidate) => void;
}) {
  const list = candidates.data?.items ?? [];
  return (
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
                    onChange={() => onChoose(c)}
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
  );
}
