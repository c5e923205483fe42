import type { BatchStatus, InstructionStatus } from "@treasury/contract";
import { stateInWords } from "@/components/data/error-text";

const TONES: Record<string, string> = {
  created: "bg-slate-100 text-slate-700 ring-slate-300",
  pending_approval: "bg-amber-50 text-amber-800 ring-amber-300",
  partially_approved: "bg-amber-50 text-amber-800 ring-amber-300",
  pending: "bg-slate-100 text-slate-700 ring-slate-300",
  approved: "bg-sky-50 text-sky-800 ring-sky-300",
  accepted: "bg-sky-50 text-sky-800 ring-sky-300",
  processing: "bg-sky-50 text-sky-800 ring-sky-300",
  proposed: "bg-sky-50 text-sky-800 ring-sky-300",
  completed: "bg-emerald-50 text-emerald-800 ring-emerald-300",
  settled: "bg-emerald-50 text-emerald-800 ring-emerald-300",
  confirmed: "bg-emerald-50 text-emerald-800 ring-emerald-300",
  delivered: "bg-emerald-50 text-emerald-800 ring-emerald-300",
  partially_completed: "bg-orange-50 text-orange-800 ring-orange-300",
  rejected: "bg-red-50 text-red-800 ring-red-300",
  failed: "bg-red-50 text-red-800 ring-red-300",
  cancelled: "bg-slate-100 text-slate-600 ring-slate-300",
};

/** A state as a small labelled badge; the words carry the meaning, colour only supports it. */
export function StatusBadge({ status }: { status: BatchStatus | InstructionStatus | string }) {
  return (
    <span
      data-status={status}
      className={
        `inline-flex items-center whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ring-1 ` +
        `ring-inset ${TONES[status] ?? TONES.created}`
      }
    >
      {stateInWords(status)}
    </span>
  );
}

/** Batch states in which the bank or the approvers are still moving it (the detail polls while in one). */
export const MOVING_STATES: readonly string[] = ["pending_approval", "approved", "processing"];
