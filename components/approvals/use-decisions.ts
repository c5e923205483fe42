"use client";

import { useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import type { ApprovalQueueRow } from "@/lib/bff/queries/payment-views";
import { bffFetch, toQueryString } from "@/components/data/bff-fetch";
import { RowKeys } from "@/components/data/operation-key";
import { errorText } from "@/components/review/error-text";
import type { RowResult } from "@/components/review/row-result";
import { paymentQueries } from "@/components/payments/payment-queries";
import { approvalQueries } from "./approval-queries";

export type Decision = "approve" | "reject";

type Queue = { items: ApprovalQueueRow[] };

/** The queue as it will be after `decision` on `id`: a rejection or a final approval leaves the queue. */
function applied(q: Queue, id: string, decision: Decision, me: string): Queue {
  return {
    items: q.items.flatMap((r) => {
      if (r.approval.id !== id) return [r];
      if (decision === "reject") return [];
      const count = r.approval.approved_count + 1;
      if (count >= r.approval.required_count) return [];
      return [{ ...r, approved_by_me: true, approved_by: [...r.approved_by, { email: me, at: new Date().toISOString() }], approval: { ...r.approval, approved_count: count, state: "partially_approved" as const } }];
    }),
  };
}

/**
 * Approve / reject, one row or many (issue 6 §3, §7): each row keeps one
 * Idempotency-Key per decision until it succeeds (a retry after a failure
 * reuses it, so nothing counts twice); the queue changes at once and the
 * row comes back with a toast when the BFF or the API refuses; bulk runs
 * report a result per row.
 */
export function useDecisions(me: string) {
  const qc = useQueryClient();
  const keys = useRef({ approve: new RowKeys(), reject: new RowKeys() });
  const [results, setResults] = useState<Record<string, RowResult>>({});
  const key = approvalQueries.queue().queryKey;

  /** The key of a row's decision; called when its dialog opens, so the key exists from then on. */
  const keyFor = (id: string, d: Decision) => keys.current[d].get(id);

  async function decideOne(row: ApprovalQueueRow, d: Decision, reason?: string): Promise<boolean> {
    const id = row.approval.id;
    setResults((r) => ({ ...r, [id]: { kind: "pending" } }));
    await qc.cancelQueries({ queryKey: key });
    const before = qc.getQueryData<Queue>(key);
    if (before) qc.setQueryData<Queue>(key, applied(before, id, d, me));
    try {
      await bffFetch(`/api/treasury/approvals/${id}/${d}${toQueryString({ company_id: row.company_id })}`, {
        method: "POST",
        ...(reason ? { body: { reason } } : {}),
        idempotencyKey: keyFor(id, d),
      });
      keys.current[d].clear(id);
      setResults((r) => ({ ...r, [id]: { kind: "ok", text: d === "approve" ? "Approved" : "Rejected" } }));
      return true;
    } catch (err) {
      // Roll back only this row: other decisions may have landed meanwhile.
      const now = qc.getQueryData<Queue>(key);
      if (now && !now.items.some((x) => x.approval.id === id)) qc.setQueryData<Queue>(key, { items: [...now.items.filter((x) => x.approval.id !== id), row].sort((a, b) => a.approval.created_at.localeCompare(b.approval.created_at)) });
      else if (now) qc.setQueryData<Queue>(key, { items: now.items.map((x) => (x.approval.id === id ? row : x)) });
      const text = errorText(err, d === "approve" ? "The approval" : "The rejection");
      setResults((r) => ({ ...r, [id]: { kind: "error", text } }));
      toast.error(`${row.batch ? `Batch ${row.batch.id.slice(0, 8)}: ` : ""}${text}`);
      return false;
    }
  }

  /** Decides each row in turn; returns how many succeeded. */
  async function decideMany(rows: readonly ApprovalQueueRow[], d: Decision, reason?: string): Promise<number> {
    let ok = 0;
    for (const row of rows) if (await decideOne(row, d, reason)) ok++;
    void qc.invalidateQueries({ queryKey: approvalQueries.all() });
    void qc.invalidateQueries({ queryKey: paymentQueries.all() });
    if (rows.length > 1) (ok === rows.length ? toast.success : toast.warning)(`${ok} of ${rows.length} ${d === "approve" ? "approved" : "rejected"}.`);
    else if (ok === 1) toast.success(d === "approve" ? "Approved." : "Rejected.");
    return ok;
  }

  return { results, keyFor, decideMany };
}
