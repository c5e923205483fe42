"use client";

import type { ReactNode } from "react";
import type { PaymentInstruction, PaymentStatusEvent } from "@treasury/contract";
import type { BatchView } from "@/lib/views/payments";
import { Timestamp } from "@/components/format/business-date";
import { StatusBadge } from "./status-badge";

interface Entry {
  at: string;
  key: string;
  label: ReactNode;
}

/**
 * The batch's story, oldest first: created, approvals (from the audit log),
 * then the status events of its instructions (ISO 20022 pain.002 states),
 * grouped by instant so a bank step of many instructions reads as one line.
 */
export function BatchTimeline({ view }: { view: BatchView }) {
  const byId = new Map<string, PaymentInstruction>(view.instructions.map((i) => [i.id, i]));
  const entries: Entry[] = [
    {
      at: view.batch.created_at,
      key: "created",
      // The person's name; the e-mail only when the dashboard has no name for them.
      label: <>Created{view.created_by ? ` by ${view.created_by_name ?? view.created_by}` : ""}</>,
    },
  ];
  for (const d of view.approval?.approved_by ?? [])
    entries.push({ at: d.at, key: `a-${d.email}-${d.at}`, label: <>Approved by {d.name ?? d.email}</> });
  if (view.approval?.rejected_by) {
    const r = view.approval.rejected_by;
    entries.push({
      at: r.at,
      key: "rejected",
      label: (
        <>
          {r.withdrawn ? "Withdrawn" : "Rejected"} by {r.name ?? r.email}
          {r.reason ? ` — “${r.reason}”` : ""}
        </>
      ),
    });
  }
  const groups = new Map<string, PaymentStatusEvent[]>();
  for (const e of view.events) {
    // Rejections with different bank reasons stay apart, so each reason is shown.
    const k = `${e.occurred_at.slice(0, 19)}|${e.status}|${e.reason ?? ""}`;
    groups.set(k, [...(groups.get(k) ?? []), e]);
  }
  for (const [k, evs] of groups) {
    const first = evs[0];
    if (!first) continue;
    const one = evs.length === 1 ? byId.get(first.instruction_id) : undefined;
    entries.push({
      at: first.occurred_at,
      key: k,
      label: (
        <span className="inline-flex flex-wrap items-center gap-1.5">
          <StatusBadge status={first.status} />
          {one ? (
            <span className="font-mono text-xs">{one.end_to_end_id}</span>
          ) : (
            <span>{evs.length} instructions</span>
          )}
          {first.reason ? (
            <span className="text-slate-600" data-testid="timeline-reason">
              reason {first.reason}
              {first.reason_text ? ` — ${first.reason_text}` : ""}
            </span>
          ) : null}
        </span>
      ),
    });
  }
  // Audit times and API times are written differently (space vs "T"): compare instants, not strings.
  entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return (
    <ol className="space-y-2 text-[13px]" aria-label="Timeline" data-testid="batch-timeline">
      {entries.map((e) => (
        <li key={e.key} className="flex flex-col gap-0.5">
          <span className="text-xs text-slate-500">
            <Timestamp value={e.at} seconds zone />
          </span>
          <span className="text-slate-800">{e.label}</span>
        </li>
      ))}
    </ol>
  );
}
