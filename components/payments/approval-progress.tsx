"use client";

import type { BatchView } from "@/lib/views/payments";

/** "k of n approvers and who", with the four-eyes rule in words. */
export function ApprovalProgressPanel({ view }: { view: BatchView }) {
  const a = view.approval;
  if (view.batch.status === "created")
    return (
      <p className="text-[13px] text-slate-600">
        Not submitted yet. After submission, approvers other than its creator decide on it.
      </p>
    );
  if (!a) return <p className="text-[13px] text-slate-600">No approval information.</p>;
  const required = a.required_count;
  return (
    <div className="space-y-2 text-[13px]" data-testid="approval-progress">
      <p className="font-medium text-slate-900">
        {a.rejected_by
          ? "Rejected"
          : required !== null
            ? `${a.approved_count} of ${required} approval${required === 1 ? "" : "s"}`
            : `${a.approved_by.length} approval${a.approved_by.length === 1 ? "" : "s"} recorded`}
      </p>
      {required !== null && (
        <div className="flex gap-1" aria-hidden>
          {Array.from({ length: required }, (_, i) => (
            <span
              key={i}
              className={`h-1.5 flex-1 rounded-full ${i < a.approved_count ? "bg-emerald-500" : "bg-slate-200"}`}
            />
          ))}
        </div>
      )}
      <ul className="space-y-0.5 text-slate-700">
        {a.approved_by.map((d) => (
          <li key={`${d.email}${d.at}`}>Approved by {d.email}</li>
        ))}
        {a.rejected_by && (
          <li>
            Rejected by {a.rejected_by.email}
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
      <p className="text-xs text-slate-500">Four-eyes: the creator cannot approve, and each approver counts once.</p>
    </div>
  );
}
