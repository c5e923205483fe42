"use client";

import { useRef, useState } from "react";
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { bffFetch } from "@/components/data/bff-fetch";
import { RowKeys } from "@/components/data/operation-key";
import { errorText } from "@/components/data/error-text";
import type { RowResult } from "./row-result";

export interface RowDecisionConfig<Row, D extends string> {
  /** The cached list the rows live in (`{ items }`). */
  listKey: QueryKey;
  /** Query keys to refetch once a run is over. */
  invalidate: QueryKey[];
  idOf: (row: Row) => string;
  /** The BFF path of decision `d` on `row`. */
  url: (row: Row, d: D) => string;
  /** The row as it will be after `d`; null when it leaves the list. */
  applied: (row: Row, d: D) => Row | null;
  /** Words: `done[d]` ("Approved"), `noun[d]` ("The approval"), `label(row)` for toasts. */
  done: Record<D, string>;
  noun: Record<D, string>;
  label: (row: Row) => string;
}

/**
 * Decisions on rows of a review list (approval queue, reconciliation; issue
 * 6 §3, §4, §7). Each row keeps one Idempotency-Key per decision, created
 * when its dialog opens (`keyFor`) and reused until it succeeds, so a retry
 * never counts twice. The list changes at once; a refused row is put back
 * where it was, with a toast and a per-row result.
 */
export function useRowDecisions<Row, D extends string>(cfg: RowDecisionConfig<Row, D>) {
  const qc = useQueryClient();
  const keys = useRef(new Map<D, RowKeys>());
  const [results, setResults] = useState<Record<string, RowResult>>({});
  const keyFor = (id: string, d: D) => {
    let k = keys.current.get(d);
    if (!k) keys.current.set(d, (k = new RowKeys()));
    return k.get(id);
  };

  async function decideOne(
    row: Row,
    d: D,
    body?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<boolean> {
    const id = cfg.idOf(row);
    setResults((r) => ({ ...r, [id]: { kind: "pending" } }));
    await qc.cancelQueries({ queryKey: cfg.listKey });
    const before = qc.getQueryData<{ items: Row[] }>(cfg.listKey);
    const index = before?.items.findIndex((x) => cfg.idOf(x) === id) ?? -1;
    if (before) {
      const next = cfg.applied(row, d);
      qc.setQueryData(cfg.listKey, {
        ...before,
        items: before.items.flatMap((x) => (cfg.idOf(x) === id ? (next ? [next] : []) : [x])),
      });
    }
    try {
      await bffFetch(cfg.url(row, d), {
        method: "POST",
        ...(body ? { body } : {}),
        ...(headers ? { headers } : {}),
        idempotencyKey: keyFor(id, d),
      });
      keys.current.get(d)?.clear(id);
      setResults((r) => ({ ...r, [id]: { kind: "ok", text: cfg.done[d] } }));
      return true;
    } catch (err) {
      // Put back only this row: other decisions may have landed meanwhile.
      const now = qc.getQueryData<{ items: Row[] }>(cfg.listKey);
      if (now) {
        const items = now.items.filter((x) => cfg.idOf(x) !== id);
        items.splice(index < 0 ? items.length : Math.min(index, items.length), 0, row);
        qc.setQueryData(cfg.listKey, { ...now, items });
      }
      const text = errorText(err, cfg.noun[d]);
      setResults((r) => ({ ...r, [id]: { kind: "error", text } }));
      toast.error(`${cfg.label(row)}: ${text}`);
      return false;
    }
  }

  /**
   * Decides each row in turn (bulk: a result per row; `headers` sent with each); returns how many succeeded.
   * `quiet`: no success toast (the caller raises its own, e.g. with an Undo); failures still toast.
   */
  async function decideMany(
    rows: readonly Row[],
    d: D,
    body?: Record<string, unknown>,
    headers?: Record<string, string>,
    quiet = false,
  ): Promise<number> {
    let ok = 0;
    for (const row of rows) if (await decideOne(row, d, body, headers)) ok++;
    for (const k of cfg.invalidate) void qc.invalidateQueries({ queryKey: k });
    if (quiet) return ok;
    if (rows.length > 1)
      (ok === rows.length ? toast.success : toast.warning)(`${ok} of ${rows.length}: ${cfg.done[d].toLowerCase()}.`);
    else if (ok === 1) toast.success(`${cfg.done[d]}.`);
    return ok;
  }

  return { results, keyFor, decideMany };
}
