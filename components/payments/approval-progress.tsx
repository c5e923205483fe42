"use client";

import type { BatchView } from "@/lib/views/payments";
import { Timestamp } from "@/components/format/business-date";

/**
 * How many approvals a batch needs: the API's count (raised to the policy's by the BFF), else the stored policy's —
 * once an approved batch has left the queue, at least the approvals it got (the API may have needed more than the
 * policy) — else, with no policy, the approvals it got. null when unknown.
 */
export function requiredApprovals(view: Pick<BatchView, "approval" | "policy" | "batch">): number | null {
  const a = view.approval;
  if (!a) return null;
  if (a.required_count !== null) return a.required_count;
  // Approved and out of the queue: every approval it got was needed (the API's count may exceed the policy's).
  const decided = !a.rejected_by && a.approved_by.length > 0 && view.batch.status !== "pending_approval";
  if (view.policy)
    return decided ? Math.max(view.policy.required_count, a.approved_by.length) : view.policy.required_count;
  return decided ? a.approved_by.length : null;
}

/** What the headline reads of a batch: its approval facts and, when known, who created it. */
type HeadlineFacts = Pick<BatchView, "approval" | "policy" | "batch"> &
  Partial<Pick<BatchView, "created_by" | "created_by_kind">>;

/** True when the batch came from an integration (an API client) or from no one the dashboard knows. */
function createdThroughApi(view: HeadlineFacts): boolean {
  return !view.created_by || view.created_by_kind === "api_client";
}

/**
 * The headline: "2 of 2 approvals", "Rejected", "Withdrawn by its creator", "1 approval so far" when the count is
 * unknown, "Awaiting approval" while pending with none yet. A batch past approval with no decision recorded by the
 * dashboard (docs/users-and-notifications.md: decisions are recorded in the audit log) was decided through the
 * Treasury API: "Approved through the API" when an API client created it, else "Approved — approvers not recorded in
 * the dashboard" (the same for rejections). Never says approved of a batch that has not passed approval.
 */
export function approvalHeadline(view: HeadlineFacts): string {
  const a = view.approval;
  if (!a) return "No approval information";
  if (a.rejected_by) return a.rejected_by.withdrawn ? "Withdrawn by its creator" : "Rejected";
  const required = requiredApprovals(view);
  const got = Math.max(a.approved_count, a.approved_by.length);
  if (required !== null) return `${Math.min(got, required)} of ${required} approval${required === 1 ? "" : "s"}`;
  if (got === 0 && APPROVED_STATES.has(view.batch.status))
    return createdThroughApi(view) ? "Approved through the API" : "Approved — approvers not recorded in the dashboard";
  if (got === 0 && view.batch.status === "rejected")
    return createdThroughApi(view) ? "Rejected through the API" : "Rejected — not recorded in the dashboard";
  if (got === 0) return view.batch.status === "pending_approval" ? "Awaiting approval" : "No approvals recorded";
  return `${got} approval${got === 1 ? "" : "s"} so far`;
}

/** Batch states reached only after every approval the API required. */
const APPROVED_STATES: ReadonlySet<string> = new Set([
  "approved",
  "processing",
  "completed",
  "partially_completed",
  "failed",
]);

/** "k of n approvals", who approved and when (viewer's zone), and the four-eyes rule in plain words. */
export function ApprovalProgressPanel({ view }: { view: BatchView }) {
  const a = view.approval;
  if (view.batch.status === "created")
    return (
      <p className="text-[13px] text-slate-600">
        Not submitted yet. After submission, approvers other than its creator decide on it.
      </p>
    );
  if (!a) return <p className="text-[13px] text-slate-600">No approval information.</p>;
  const required = requiredApprovals(view);
  const got = Math.max(a.approved_count, a.approved_by.length);
  return (
    <div className="space-y-2 text-[13px]" data-testid="approval-progress">
      <p className="font-medium text-slate-900" data-testid="approval-headline">
        {approvalHeadline(view)}
      </p>
      {required !== null && !a.rejected_by && (
        <div className="flex gap-1" aria-hidden>
          {Array.from({ length: required }, (_, i) => (
            <span key={i} className={`h-1.5 flex-1 rounded-full ${i < got ? "bg-emerald-500" : "bg-slate-200"}`} />
          ))}
        </div>
      )}
      <ul className="space-y-0.5 text-slate-700">
        {a.approved_by.map((d) => (
          <li key={`${d.email}${d.at}`} data-testid="approved-by">
            Approved by {d.name ?? d.email} · <Timestamp value={d.at} />
          </li>
        ))}
        {a.rejected_by && (
          <li data-testid="rejected-by">
            {a.rejected_by.withdrawn ? "Withdrawn" : "Rejected"} by {a.rejected_by.name ?? a.rejected_by.email} ·{" "}
            <Timestamp value={a.rejected_by.at} />
            {a.rejected_by.reason ? `: “${a.rejected_by.reason}”` : ""}
          </li>
        )}
      </ul>
      {view.policy && (
        <p className="text-xs text-slate-700" data-testid="batch-policy">
          Policy: {view.policy.explanation}
          {view.policy.held > 0
            ? ` · ${view.policy.held} approval${view.policy.held === 1 ? "" : "s"} held by the dashboard until the count is met`
            : ""}
        </p>
      )}
      <p className="text-xs text-slate-500">
        Four-eyes: the person who created a batch cannot approve it, and one person approving twice still counts as one
        approval.
      </p>
    </div>
  );
}
