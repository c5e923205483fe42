"use client";

import type { MatchReviewRow } from "@/lib/views/reconciliation";
import { Timestamp } from "@/components/format/business-date";
import { Button } from "@/components/ui/button";
import { ACTIVE_ROW } from "@/components/review-queue/keyboard-help";
import { RowResultText, type RowResult } from "@/components/review-queue/row-result";
import { SelectCell } from "@/components/review-queue/select-cell";
import type { MatchAction } from "./match-decision-dialog";
import { DecisionInfo, InstructionSide, TransactionSide } from "./match-sides";
import { ScoreBreakdown } from "./score-breakdown";
import { AutoConfirmFailure, AutoConfirmInfo } from "./auto-confirm-info";

const td = "border-b border-slate-100 px-3 py-2 align-top";

export interface MatchRowProps {
  row: MatchReviewRow;
  index: number;
  /** The "to review" tab (else the decided one). */
  proposed: boolean;
  /** The user may decide here: the select box and the Confirm / Reject buttons are shown. */
  canAct: boolean;
  active: boolean;
  selected: boolean;
  result: RowResult | undefined;
  onActivate: () => void;
  onSelect: () => void;
  onDecide: (d: MatchAction) => void;
  /** An exact match (score 100) confirms on one click, without the dialog (the caller offers an undo). */
  onQuickConfirm?: () => void;
  /** Decided tab: the user may undo a rule's confirmation (reconciliation write permission). */
  mayUndo?: boolean;
}

/**
 * One match: the instruction (payee, amount) and the transaction (amount, booking and value dates) side by side, the
 * score and when it was proposed or decided; an exact match's Confirm acts on one click (docs/guides/reconciliation.md).
 */
export function MatchRow(p: MatchRowProps) {
  const r = p.row;
  const exact = r.match.score === 100 && r.match.state === "proposed";
  return (
    <tr
      data-row-index={p.index}
      tabIndex={-1}
      onClick={p.onActivate}
      data-testid="match-row"
      data-e2e={r.instruction?.end_to_end_id ?? ""}
      className={`${p.canAct && p.active ? ACTIVE_ROW : ""} outline-none`}
    >
      {p.canAct && (
        <SelectCell
          className={td}
          label={`Select match ${r.instruction?.end_to_end_id ?? r.match.id.slice(0, 8)}`}
          checked={p.selected}
          onToggle={p.onSelect}
        />
      )}
      <td className={td}>{r.company_name}</td>
      <td className={`${td} min-w-56`}>
        <InstructionSide row={r} />
      </td>
      <td className={`${td} min-w-56`}>
        <TransactionSide row={r} />
      </td>
      <td className={td}>
        <ScoreBreakdown score={r.match.score} breakdown={r.match.score_breakdown} />
      </td>
      <td className={`${td} text-slate-600`}>
        {!p.proposed ? (
          <>
            <DecisionInfo row={r} />
            <AutoConfirmInfo row={r} mayUndo={p.mayUndo ?? false} />
          </>
        ) : (
          <>
            {r.match.created_at ? <Timestamp value={r.match.created_at} /> : "—"}
            <AutoConfirmFailure row={r} />
          </>
        )}
      </td>
      {p.canAct && (
        <td className={`${td} whitespace-nowrap`}>
          <div className="flex flex-col gap-1">
            {exact && p.onQuickConfirm ? (
              <Button
                variant="primary"
                onClick={p.onQuickConfirm}
                data-testid="confirm-match"
                data-quick="true"
                title="Exact match: confirmed at once, with an undo"
              >
                Confirm
              </Button>
            ) : (
              <Button variant="primary" onClick={() => p.onDecide("confirm")} data-testid="confirm-match">
                Confirm
              </Button>
            )}
            <Button onClick={() => p.onDecide("reject")} data-testid="reject-match">
              Reject
            </Button>
          </div>
          <RowResultText result={p.result} />
        </td>
      )}
    </tr>
  );
}
