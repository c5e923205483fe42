"use client";

import { useQuery } from "@tanstack/react-query";
import { Timestamp } from "@/components/format/business-date";
import { ProblemState, SkeletonRows } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { StatusBadge } from "@/components/payments/status-badge";
import { errorText } from "@/components/data/error-text";
import { webhookQueries } from "./webhook-queries";

/** The delivery log of one endpoint: status code, attempts, next retry. */
export function DeliveriesLog({ id }: { id: string }) {
  const q = useQuery(webhookQueries.deliveries(id));
  if (q.isPending) return <SkeletonRows rows={3} />;
  if (q.isError)
    return (
      <ProblemState title="The delivery log could not be loaded" message={errorText(q.error, "Loading the log")} />
    );
  if (q.data.items.length === 0)
    return <p className="text-[13px] text-slate-600">No deliveries yet. Send a test event to try the endpoint.</p>;
  return (
    <Table label="Deliveries">
      <thead>
        <tr>
          <Th>Created</Th>
          <Th>Event</Th>
          <Th>Status</Th>
          <Th align="right">HTTP</Th>
          <Th align="right">Attempts</Th>
          <Th>Next retry</Th>
          <Th>Last error</Th>
        </tr>
      </thead>
      <tbody>
        {q.data.items.map((d) => (
          <tr key={d.id} data-testid="delivery-row" data-status={d.status}>
            <Td className="text-slate-600">
              <Timestamp value={d.created_at} seconds zone />
            </Td>
            <Td mono>{d.event_type}</Td>
            <Td>
              <StatusBadge status={d.status} />
            </Td>
            <Td align="right" data-testid="delivery-code">
              {d.last_status_code ?? "—"}
            </Td>
            <Td align="right">{d.attempts}</Td>
            <Td className="text-slate-600">{d.next_attempt_at ? <Timestamp value={d.next_attempt_at} /> : "—"}</Td>
            <Td className="max-w-64 truncate text-slate-600" title={d.last_error ?? undefined}>
              {d.last_error ?? "—"}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
