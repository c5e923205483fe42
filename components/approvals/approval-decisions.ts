import type { ApprovalQueueRow } from "@/lib/views/payments";
import { endpointUrl } from "@/lib/bff/endpoint";
import { paymentsEndpoints } from "@/lib/bff/areas/payments/endpoints";
import type { RowDecisionConfig } from "@/components/review-queue/use-row-decisions";
import { paymentQueries } from "@/components/payments/payment-queries";
import { approvalQueries, approveBlocker, queueBatchLabel } from "./approval-queries";

export type Decision = "approve" | "reject";

/**
 * Approve / reject on the approval queue, for `useReviewQueue`: a rejection
 * or a final approval takes the row out of the queue at once; a partial
 * approval marks it as approved by the signed-in user `me` (an e-mail).
 * Rows the user may not approve (four-eyes, `approveBlocker`) are left out
 * of an approval.
 */
export function approvalDecisions(me: string): RowDecisionConfig<ApprovalQueueRow, Decision> & {
  allows: (row: ApprovalQueueRow, d: Decision) => boolean;
} {
  return {
    listKey: approvalQueries.queue().queryKey,
    invalidate: [...approvalQueries.keys(), ...paymentQueries.keys()],
    idOf: (r) => r.approval.id,
    url: (r, dec) => endpointUrl(paymentsEndpoints[dec], { id: r.approval.id }, { company_id: r.company_id }),
    applied: (r, dec) => {
      const count = r.approval.approved_count + 1;
      if (dec === "reject" || count >= r.approval.required_count) return null;
      return {
        ...r,
        approved_by_me: true,
        approved_by: [...r.approved_by, { email: me, at: new Date().toISOString() }],
        approval: { ...r.approval, approved_count: count, state: "partially_approved" },
      };
    },
    allows: (r, dec) => dec === "reject" || !approveBlocker(r),
    done: { approve: "Approved", reject: "Rejected" },
    noun: { approve: "The approval", reject: "The rejection" },
    label: (r) => queueBatchLabel(r),
  };
}
