/** Query options of the approval queue (one module per resource). */
import { queryOptions } from "@tanstack/react-query";
import type { ApprovalQueueRow } from "@/lib/views/payments";
import { endpointQuery } from "@/components/data/bff-fetch";
import { endpointKey } from "@/lib/bff/endpoint";
import { paymentsEndpoints } from "@/lib/bff/areas/payments/endpoints";
import { batchLabel, batchReferenceOf } from "@/components/payments/batch-name";

/**
 * The approval queue's and the navigation's waiting count's React Query options, keyed by their endpoints
 * (docs/architecture.md#the-bff-declared-per-area); `keys()` reach both (what a decision invalidates).
 */
export const approvalQueries = {
  keys: () => [endpointKey(paymentsEndpoints.approvalQueue), endpointKey(paymentsEndpoints.waiting)] as const,
  queue: () =>
    queryOptions({
      ...endpointQuery(paymentsEndpoints.approvalQueue),
      // Other approvers decide too: keep the queue fresh while it is open.
      refetchInterval: 15_000,
    }),
};

/** The batch's own name when the API carries one (an extension); absent on the spec API. */
export function batchReference(row: Pick<ApprovalQueueRow, "batch">): string | null {
  return batchReferenceOf(row.batch);
}

/** The queued batch's name as text: its reference, else `Batch 3d0dae1a`. */
export function queueBatchLabel(row: Pick<ApprovalQueueRow, "batch" | "approval">): string {
  return batchLabel(row.approval.object_id, batchReference(row));
}

/** The creator turning down their own submitted batch withdraws it; anyone else rejects it. */
export function rejectVerb(row: Pick<ApprovalQueueRow, "created_by_me">): "Withdraw" | "Reject" {
  return row.created_by_me ? "Withdraw" : "Reject";
}

/** The creator's name, the e-mail (or "API client <id>") when the dashboard has no name, or null when unknown. */
export function creatorLabel(row: Pick<ApprovalQueueRow, "created_by" | "created_by_name">): string | null {
  return row.created_by ? (row.created_by_name ?? row.created_by) : null;
}

/** Why the signed-in user may not approve a row (four-eyes), or null when they may. */
export function approveBlocker(row: ApprovalQueueRow): string | null {
  if (row.created_by_me) return "You created this batch, so another approver must approve it (four-eyes).";
  if (row.approved_by_me)
    return "You have approved it already. Your approval counts once; another approver must give the next one.";
  return null;
}

/** Why a bulk approval leaves `row` out (high-risk signals need an acknowledgement one by one), or null. */
export function bulkApproveBlocker(row: ApprovalQueueRow): string | null {
  const codes = row.risk?.requires_acknowledgement ?? [];
  if (codes.length === 0) return null;
  const names = codes.map((c) => c.replaceAll("_", " ")).join(", ");
  return `Not approved in bulk: ${names} must be acknowledged. Approve it on its own.`;
}
