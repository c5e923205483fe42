"use client";

import { useRef } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MatchReviewRow } from "@/lib/views/reconciliation";
import { callBff } from "@/components/data/bff-fetch";
import { reconciliationEndpoints } from "@/lib/bff/areas/reconciliation/endpoints";
import { errorText } from "@/components/data/error-text";
import { Timestamp } from "@/components/format/business-date";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { invalidateReconciliation } from "./match-queries";

/**
 * The decided tab's line for a match an auto-confirm rule confirmed: "Confirmed by rule <name>", and for a person
 * who may decide matches an Undo button until 24 h after the confirmation (absent when the API cannot reopen a
 * match; the rules page says why). Undo puts the match back in the review; one Idempotency-Key per match, kept until
 * the undo succeeds.
 */
export function AutoConfirmInfo({ row, mayUndo }: { row: MatchReviewRow; mayUndo: boolean }) {
  const a = row.auto_confirmation;
  const qc = useQueryClient();
  const keys = useRef(new Map<string, string>());
  const id = row.match.id;
  const undo = useMutation({
    mutationFn: () => {
      let key = keys.current.get(id);
      if (!key) keys.current.set(id, (key = crypto.randomUUID()));
      return callBff(reconciliationEndpoints.undoAutoConfirm, { params: { id }, idempotencyKey: key });
    },
    onSuccess: () => {
      keys.current.delete(id);
      toast.success("Undone: the match is back in the review.");
      void invalidateReconciliation(qc);
    },
    onError: (err) => toast.error(errorText(err, "The undo")),
  });
  if (!a) return null;
  return (
    <div className="mt-1 max-w-60 space-y-1 text-xs" data-testid="auto-confirmed">
      <div className="font-medium text-slate-800">Confirmed by rule {a.rule_name}</div>
      {mayUndo && a.undo_until && (
        <>
          <div className="text-slate-600">
            Can be undone until <Timestamp value={a.undo_until} />
          </div>
          <Button onClick={() => undo.mutate()} pending={undo.isPending} data-testid="undo-auto-confirm">
            Undo
          </Button>
        </>
      )}
    </div>
  );
}

/**
 * The proposed tab's line for a proposal an auto-confirm rule held for but the Treasury API refused to confirm:
 * the rule and the API's answer. The rule does not try again; the proposal is the reviewer's to decide.
 */
export function AutoConfirmFailure({ row }: { row: MatchReviewRow }) {
  const f = row.auto_confirm_failure;
  if (!f) return null;
  return (
    <div className="mt-1 max-w-60 text-xs text-amber-800" data-testid="auto-confirm-failed">
      Rule {f.rule_name} could not confirm it: {f.error}
    </div>
  );
}
