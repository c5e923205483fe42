"use client";

import { useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MatchCandidate, UnmatchedRow } from "@/lib/views/unmatched";
import { ManualMatchCandidates } from "./manual-match-candidates";
import { ManualMatchConfirm } from "./manual-match-confirm";
import { callBff } from "@/components/data/bff-fetch";
import { reconciliationEndpoints } from "@/lib/bff/areas/reconciliation/endpoints";
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
    return (
      <ManualMatchConfirm
        item={item}
        chosen={chosen}
        note={note}
        onNote={setNote}
        pending={create.isPending}
        error={create.isError ? create.error : null}
        onBack={() => setStep("pick")}
        onConfirm={(pair) => create.mutate(pair)}
        onClose={onClose}
      />
    );
  }

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
      <ManualMatchCandidates candidates={candidates} otherNoun={otherNoun} q={q} chosen={chosen} onChoose={setChosen} />
    </Modal>
  );
}
