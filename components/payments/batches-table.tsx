"use client";

import Link from "next/link";
import type { MouseEvent } from "react";
import type { BatchListRow } from "@/lib/views/payments";
import { Amount } from "@/components/format/amount";
import { BusinessDate, Timestamp } from "@/components/format/business-date";
import { Table, Td, Th } from "@/components/ui/table";
import { toast } from "@/components/ui/toast";
import { BffRequestError, callBff } from "@/components/data/bff-fetch";
import { sessionEndpoints } from "@/lib/bff/areas/session/endpoints";
import { creatorLabel } from "@/components/approvals/approval-queries";
import { approvalHeadline } from "./approval-progress";
import { BatchName, batchReferenceOf } from "./batch-name";
import { StatusBadge } from "./status-badge";

/**
 * The payments list's table: when it was created, the batch (named by its reference), its company (all-companies
 * view), when and by whom it was created, its status with its approval progress under it ("1 of 2 approvals", as on
 * the batch page), execution date, instruction count and total. A batch of another company than the selected one opens after switching to it.
 */
export function BatchesTable({
  rows,
  showCompany,
  currentCompanyId,
}: {
  rows: readonly BatchListRow[];
  showCompany: boolean;
  currentCompanyId: string;
}) {
  return (
    <Table label="Payment batches">
      <thead>
        <tr>
          <Th>Batch</Th>
          {showCompany && <Th>Company</Th>}
          <Th>Created</Th>
          <Th>Created by</Th>
          <Th>Status and approvals</Th>
          <Th>Execution date</Th>
          <Th align="right">Instructions</Th>
          <Th align="right">Total</Th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const b = r.batch;
          return (
            <tr key={b.id} className="hover:bg-slate-50" data-testid="batch-row" data-batch-id={b.id}>
              <Td className="min-w-36">
                <BatchLink row={r} currentCompanyId={currentCompanyId} />
              </Td>
              {showCompany && (
                <Td className="whitespace-nowrap" data-testid="batch-company">
                  {r.company_name}
                </Td>
              )}
              <Td className="whitespace-nowrap text-slate-600">
                <Timestamp value={b.created_at} />
              </Td>
              <Td className="min-w-28" data-testid="batch-creator">
                {creatorLabel(r) ?? <span className="text-slate-500">unknown</span>}
              </Td>
              <Td>
                <StatusBadge status={b.status} />
                {b.status !== "created" && (
                  <span className="mt-0.5 block text-xs text-slate-700" data-testid="batch-approvals">
                    {approvalHeadline(r)}
                  </span>
                )}
              </Td>
              <Td className="whitespace-nowrap">
                {b.requested_execution_date ? (
                  <BusinessDate date={b.requested_execution_date} />
                ) : (
                  <span className="text-slate-500">—</span>
                )}
              </Td>
              <Td align="right">{b.instruction_count}</Td>
              <Td align="right" className="whitespace-nowrap">
                <Amount value={b.total_amount} currency={b.currency} />
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

/** The batch's name linking to its page; a batch of another company switches the selected company first. */
function BatchLink({ row, currentCompanyId }: { row: BatchListRow; currentCompanyId: string }) {
  const href = `/payments/${row.batch.id}`;
  const elsewhere = row.company_id !== currentCompanyId;

  async function openElsewhere(e: MouseEvent<HTMLAnchorElement>) {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    try {
      await callBff(sessionEndpoints.selectCompany, {
        body: { company_id: row.company_id },
        idempotencyKey: crypto.randomUUID(),
      });
      // A full load: the shell (switcher) and every cached query belong to the company just chosen.
      window.location.assign(href);
    } catch (err) {
      toast.error(err instanceof BffRequestError ? err.message : "The company could not be switched.");
    }
  }

  return (
    <Link
      href={href}
      onClick={elsewhere ? (e) => void openElsewhere(e) : undefined}
      title={elsewhere ? `Opens in ${row.company_name}` : undefined}
      className="text-sky-800 underline-offset-2 hover:underline"
      data-testid="batch-link"
    >
      <BatchName id={row.batch.id} reference={batchReferenceOf(row.batch)} />
    </Link>
  );
}
