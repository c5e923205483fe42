"use client";

import { useQuery } from "@tanstack/react-query";
import { Landmark } from "lucide-react";
import { accountQueries } from "@/components/data/queries";
import { BffRequestError } from "@/components/data/bff-fetch";
import { EmptyState, ProblemState, SkeletonRows } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";

/** The selected company's bank accounts (hydrated from the server prefetch). */
export function AccountsTable({ companyId, companyName }: { companyId: string; companyName: string }) {
  const q = useQuery(accountQueries.list(companyId));
  if (q.isPending) return <SkeletonRows />;
  if (q.isError) {
    const e = q.error;
    return <ProblemState title="Accounts could not be loaded" message={e.message} requestId={e instanceof BffRequestError ? e.requestId : undefined} />;
  }
  if (q.data.items.length === 0) {
    return (
      <EmptyState title="No bank accounts yet" icon={Landmark}>
        {companyName} has no bank accounts in the Treasury API. Accounts appear here once the bank delivers statements or an administrator adds one.
      </EmptyState>
    );
  }
  return (
    <Table label="Bank accounts">
      <thead>
        <tr>
          <Th>Name</Th>
          <Th>IBAN</Th>
          <Th>Bank</Th>
          <Th>Currency</Th>
          <Th>Status</Th>
        </tr>
      </thead>
      <tbody>
        {q.data.items.map((a) => (
          <tr key={a.id} className="hover:bg-slate-50">
            <Td className="font-medium">{a.name}</Td>
            <Td mono>{a.iban_masked}</Td>
            <Td>{a.bank_name}</Td>
            <Td>{a.currency}</Td>
            <Td>
              <span className={`rounded px-1.5 py-0.5 text-xs ${a.status === "closed" ? "bg-slate-100 text-slate-500" : "bg-emerald-50 text-emerald-800"}`}>{a.status ?? "active"}</span>
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
