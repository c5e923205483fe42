"use client";

import { useState } from "react";
import Decimal from "decimal.js";
import { useQueryClient } from "@tanstack/react-query";
import type { ExactSummary, MatchReviewRow } from "@/lib/views/reconciliation";
import { callBff } from "@/components/data/bff-fetch";
import { reconciliationEndpoints, type BulkConfirmAnswer } from "@/lib/bff/areas/reconciliation/endpoints";
import { errorText } from "@/components/data/error-text";
import { Amount } from "@/components/format/amount";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toast";
import type { RowResult } from "@/components/review-queue/row-result";
import { invalidateReconciliation } from "./match-queries";

/** The instruction amounts of `rows` summed per currency (decimal.js), in currency order. */
export function totalsByCurrency(rows: readonly MatchReviewRow[]): { currency: string; total: string }[] {
  const sums = new Map<string, Decimal>();
  for (const r of rows) {
    if (!r.instruction) continue;
    const c = r.instruction.currency;
    sums.set(c, (sums.get(c) ?? new Decimal(0)).plus(r.instruction.amount));
  }
  return [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, total]) => ({ currency, total: total.toFixed(2) }));
}

const label = (r: MatchReviewRow) => r.instruction?.end_to_end_id ?? r.match.id.slice(0, 8);

/**
 * With `exact` ("Confirm all exact matches"): the ids, count and totals come from the BFF's summary and the request
 * goes to the confirm-exact route, which re-checks each is still a proposal scoring 100.
 *
 * Confirms the selected proposals in one request (the BFF's bulk-confirm route: one audit entry per confirmed
 * match). Before: how many, the total per currency and the companies, and the matches. After: a result per match —
 * confirmed, or refused with the reason — which also goes to each row (`onResults`). One Idempotency-Key per dialog,
 * kept for a retry after a failed request so nothing is confirmed twice.
 */
export function BulkConfirmDialog({
  rows,
  exact,
  onClose,
  onResults,
}: {
  rows: MatchReviewRow[];
  exact?: ExactSummary;
  onClose: () => void;
  onResults: (results: Record<string, RowResult>) => void;
}) {
  const qc = useQueryClient();
  const [key] = useState(() => crypto.randomUUID());
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<BulkConfirmAnswer | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const companies = [...new Set(rows.map((r) => r.company_name || "—"))].sort();
  const totals = exact ? exact.totals : totalsByCurrency(rows);
  const ids = exact ? exact.ids : rows.map((r) => r.match.id);
  const byId = new Map(rows.map((r) => [r.match.id, r]));

  async function go() {
    setBusy(true);
    setProblem(null);
    try {
      const a = await callBff(reconciliationEndpoints[exact ? "confirmExact" : "bulkConfirm"], {
        body: { ids },
        idempotencyKey: key,
      });
      setAnswer(a);
      onResults(
        Object.fromEntries(
          a.results.map((x) => [
            x.id,
            x.status === "confirmed"
              ? { kind: "ok" as const, text: "Confirmed" }
              : { kind: "error" as const, text: x.message },
          ]),
        ),
      );
      (a.refused === 0 ? toast.success : toast.warning)(`${a.confirmed} of ${a.results.length} confirmed.`);
      void invalidateReconciliation(qc);
    } catch (err) {
      setProblem(errorText(err, "The confirmation"));
    } finally {
      setBusy(false);
    }
  }

  const n = ids.length;
  return (
    <Modal
      open
      onOpenChange={(o) => !o && !busy && onClose()}
      title={
        answer
          ? `${answer.confirmed} of ${answer.results.length} confirmed`
          : `Confirm ${n} ${exact ? "exact " : ""}${n === 1 ? "match" : "matches"}?`
      }
      testId="bulk-confirm-dialog"
      description={
        answer
          ? "Each match's result; a refused match stays in the review with its reason."
          : "Each confirmed match marks its payment as reconciled with the bank transaction and gets its own audit entry."
      }
      wide
      footer={
        answer ? (
          <Button variant="primary" onClick={onClose} data-testid="bulk-confirm-close">
            Close
          </Button>
        ) : (
          <>
            <Button onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button variant="primary" pending={busy} onClick={() => void go()} data-testid="bulk-confirm-submit">
              {busy ? "Working…" : `Confirm ${n}`}
            </Button>
          </>
        )
      }
    >
      {!answer && (
        <dl className="mb-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-[13px]" data-testid="bulk-confirm-summary">
          <dt className="text-slate-500">Matches</dt>
          <dd className="font-medium text-slate-900" data-testid="bulk-confirm-count">
            {n}
          </dd>
          <dt className="text-slate-500">Total</dt>
          <dd data-testid="bulk-confirm-totals">
            {totals.map((t, i) => (
              <span key={t.currency}>
                {i > 0 && " · "}
                <Amount value={t.total} currency={t.currency} />
              </span>
            ))}
          </dd>
          {!exact && (
            <>
              <dt className="text-slate-500">{companies.length === 1 ? "Company" : "Companies"}</dt>
              <dd data-testid="bulk-confirm-companies">{companies.join(", ")}</dd>
            </>
          )}
        </dl>
      )}
      <ul
        className="max-h-64 space-y-1 overflow-auto rounded text-[13px] text-slate-700 focus-visible:outline-2 focus-visible:outline-slate-900"
        data-testid="bulk-confirm-list"
        // Scrollable: reachable by keyboard so its rows can be scrolled without a mouse.
        tabIndex={0}
        aria-label={answer ? "Result per match" : "Matches to confirm"}
      >
        {(answer ? answer.results : ids.map((id) => ({ id, status: null }) as const)).map((x) => {
          const r = byId.get(x.id);
          return (
            <li
              key={x.id}
              className="grid grid-cols-[1fr_auto_7rem] items-baseline gap-x-4"
              data-testid="bulk-confirm-item"
              data-match-id={x.id}
              data-status={x.status ?? "selected"}
            >
              <span className="font-mono text-xs">{r ? label(r) : x.id.slice(0, 8)}</span>
              <span className="text-right">
                {r?.instruction && <Amount value={r.instruction.amount} currency={r.instruction.currency} />}
              </span>
              {x.status === null ? (
                <span className="text-right">score {r?.match.score}</span>
              ) : x.status === "confirmed" ? (
                <span className="text-right text-emerald-700">Confirmed</span>
              ) : (
                <>
                  <span className="text-right text-red-700">Not confirmed</span>
                  <span className="col-span-3 text-red-700">Reason: {x.message}</span>
                </>
              )}
            </li>
          );
        })}
      </ul>
      {problem && (
        <p role="alert" className="mt-3 text-[13px] text-red-700" data-testid="bulk-confirm-problem">
          {problem} Try again: nothing is confirmed twice.
        </p>
      )}
    </Modal>
  );
}
