"use client";

import { useState } from "react";
import { useReviewKeys } from "./use-review-keys";
import { useRowDecisions, type RowDecisionConfig } from "./use-row-decisions";

export interface ReviewQueueConfig<Row, D extends string> extends RowDecisionConfig<Row, D> {
  /** The rows shown, in order (the keyboard's active row indexes them). */
  rows: readonly Row[];
  /** The decisions behind the keys `a` (approve / confirm) and `r` (reject). */
  approve: D;
  reject: D;
  /** False for a read-only view: no keys, and `open` does nothing. */
  canAct: boolean;
  /** Whether `row` may take decision `d` (e.g. four-eyes); refused rows are left out of a dialog. */
  allows?: (row: Row, d: D) => boolean;
}

/** The dialog of a pending decision: the rows it applies to and the decision. */
export interface ReviewDialog<Row, D extends string> {
  rows: Row[];
  decision: D;
}

/**
 * The state of a review queue (the approval queue and the reconciliation
 * review share it): the selection, the decision dialog, the keyboard help,
 * the keyboard's active row, and the decisions with a result per row (see
 * `useRowDecisions`: one Idempotency-Key per row and decision, created when
 * the dialog opens and reused until that decision succeeds, so a retry never
 * counts twice).
 * `open(rows, d)` keeps the rows that may take `d` and opens the dialog;
 * `confirm(reason, extra, headers)` runs the dialog's decision on each of its rows (the
 * body is `{ reason, ...extra }`, e.g. the acknowledged risk signals of an
 * approval; `headers` e.g. the passkey step-up proof) and clears the selection.
 */
export function useReviewQueue<Row, D extends string>(cfg: ReviewQueueConfig<Row, D>) {
  const { rows, approve, reject, canAct, allows } = cfg;
  const { results, keyFor, decideMany } = useRowDecisions(cfg);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<ReviewDialog<Row, D> | null>(null);
  const [help, setHelp] = useState(false);

  function open(list: readonly Row[], decision: D) {
    const allowed = allows ? list.filter((r) => allows(r, decision)) : [...list];
    if (!canAct || allowed.length === 0) return;
    for (const r of allowed) keyFor(cfg.idOf(r), decision);
    setDialog({ rows: allowed, decision });
  }
  function toggle(id: string) {
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }
  /** Replaces the selection with `ids` (select all, select by score). */
  function selectOnly(ids: readonly string[]) {
    setSelected(new Set(ids));
  }
  async function confirm(reason?: string, extra?: Record<string, unknown>, headers?: Record<string, string>) {
    if (!dialog) return;
    const body = { ...(reason ? { reason } : {}), ...extra };
    await decideMany(dialog.rows, dialog.decision, Object.keys(body).length ? body : undefined, headers);
    setSelected(new Set());
  }
  /** Decides `row` at once, without the dialog (one-click decisions); no success toast. True when it went through. */
  async function decideNow(row: Row, decision: D): Promise<boolean> {
    if (!canAct || (allows && !allows(row, decision))) return false;
    keyFor(cfg.idOf(row), decision);
    return (await decideMany([row], decision, undefined, undefined, true)) === 1;
  }
  const { active, setActive } = useReviewKeys({
    count: rows.length,
    enabled: canAct && !dialog && !help,
    onToggle: (i) => rows[i] && toggle(cfg.idOf(rows[i])),
    onApprove: (i) => rows[i] && open([rows[i]], approve),
    onReject: (i) => rows[i] && open([rows[i]], reject),
    onHelp: () => setHelp(true),
  });

  return {
    results,
    selected,
    toggle,
    selectOnly,
    /** The selected rows that are still shown, in list order. */
    chosen: rows.filter((r) => selected.has(cfg.idOf(r))),
    dialog,
    open,
    close: () => setDialog(null),
    confirm,
    decideNow,
    help,
    setHelp,
    active,
    setActive,
  };
}
