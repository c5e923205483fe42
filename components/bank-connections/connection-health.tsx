"use client";

import { Timestamp } from "@/components/format/business-date";
import { Table, Td, Th } from "@/components/ui/table";
import type { BankConnectionHealthView } from "@/lib/bff/queries/bank-connections";

const STATE_LABEL: Record<BankConnectionHealthView["state"], string> = {
  ok: "Healthy",
  failing: "Failing",
  inactive: "Switched off",
};
const STATE_CLASS: Record<BankConnectionHealthView["state"], string> = {
  ok: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  failing: "bg-rose-50 text-rose-800 ring-rose-200",
  inactive: "bg-slate-100 text-slate-700 ring-slate-200",
};

function When({ value }: { value: string | null }) {
  return value === null ? <span className="text-slate-400">Never</span> : <Timestamp value={value} />;
}

/**
 * The health of a company's bank connections, one row per connection (cards on a phone): state, last successful pull
 * and push, files in / out / failed today (UTC), the last error. Read-only (docs/bank-channels.md#operations).
 */
export function ConnectionHealth({ connections }: { connections: BankConnectionHealthView[] }) {
  return (
    <Table label="Bank connections">
      <thead>
        <tr>
          <Th>Bank</Th>
          <Th>State</Th>
          <Th>Last pull</Th>
          <Th>Last push</Th>
          <Th align="right">In today</Th>
          <Th align="right">Out today</Th>
          <Th align="right">Failed today</Th>
          <Th>Last error</Th>
        </tr>
      </thead>
      <tbody>
        {connections.map((c) => (
          <tr key={c.id} data-connection={c.id}>
            <Td>
              <div className="font-medium text-slate-900">{c.bank_name}</div>
              <div className="text-xs text-slate-500">
                {c.channel === "sftp" ? "SFTP" : "Folder"}
                {c.accounts.length > 0 ? ` · ${c.accounts.join(", ")}` : ""}
              </div>
            </Td>
            <Td>
              <span
                className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATE_CLASS[c.state]}`}
              >
                {STATE_LABEL[c.state]}
                {c.state === "failing" ? ` (${c.consecutive_failures}×)` : ""}
              </span>
            </Td>
            <Td>
              <When value={c.last_pull_ok_at} />
            </Td>
            <Td>
              <When value={c.last_push_ok_at} />
            </Td>
            <Td align="right">{c.files_in_today}</Td>
            <Td align="right">{c.files_out_today}</Td>
            <Td align="right" className={c.failed_files_today > 0 ? "font-medium text-rose-700" : ""}>
              {c.failed_files_today}
            </Td>
            <Td className="max-w-72 break-words text-xs text-slate-600">{c.last_error ?? "—"}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
