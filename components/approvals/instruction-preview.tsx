"use client";

import type { ApprovalQueueRow } from "@/lib/views/payments";
import { Amount } from "@/components/format/amount";
import { queueBatchLabel } from "./approval-queries";
import { HeaderCells, type HeaderCell } from "@/components/ui/header-cells";

const INSTRUCTION_COLUMNS: readonly HeaderCell[] = [
  "End-to-end id",
  "Creditor",
  "IBAN",
  { label: "Amount", key: "Amount", className: "py-1 text-right font-medium" },
];

/** The first instructions of a queued batch, shown when its row is expanded. */
export function InstructionPreview({ row }: { row: ApprovalQueueRow }) {
  if (row.instructions.length === 0)
    return <p className="text-[13px] text-slate-600">The instructions could not be read.</p>;
  const more = (row.batch?.instruction_count ?? row.instructions.length) - row.instructions.length;
  return (
    <div>
      <table
        className="w-full max-w-3xl border-collapse text-[12px]"
        aria-label={`Instructions of ${queueBatchLabel(row)}`}
      >
        <thead>
          <tr className="text-left text-slate-500">
            <HeaderCells cells={INSTRUCTION_COLUMNS} className="py-1 pr-3 font-medium" />
          </tr>
        </thead>
        <tbody>
          {row.instructions.map((i) => (
            <tr key={i.id}>
              <td className="py-0.5 pr-3 font-mono">{i.end_to_end_id}</td>
              <td className="py-0.5 pr-3">{i.creditor_name}</td>
              <td className="py-0.5 pr-3 font-mono">{i.creditor_iban}</td>
              <td className="py-0.5 text-right">
                <Amount value={i.amount} currency={i.currency} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {more > 0 && <p className="mt-1 text-xs text-slate-500">and {more} more</p>}
    </div>
  );
}
