import type { Metadata } from "next";
import { Cable } from "lucide-react";
import { loadData, loadPage } from "@/lib/bff/page";
import { bankConnectionsAvailable, listBankConnectionHealth } from "@/lib/bff/queries/bank-connections";
import { ConnectionHealth } from "@/components/bank-connections/connection-health";
import { EmptyState, PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Bank connections" };

/**
 * Bank connection health (treasurers and admins, read-only; docs/bank-channels.md#operations): the selected company's
 * host-to-host connections where the API offers them; otherwise a note that files arrive another way.
 */
export default async function BankConnectionsPage() {
  const load = await loadPage("bank-connections", { company: "required" });
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const header = (
    <PageHeader
      title="Bank connections"
      description={`Host-to-host file channels of ${ctx.company.name}: statements in, payment files out`}
    />
  );
  if (!(await bankConnectionsAvailable()))
    return (
      <div className="max-w-6xl">
        {header}
        <EmptyState title="No host-to-host channels" icon={Cable}>
          This Treasury API does not manage bank connections; bank files reach it another way.
        </EmptyState>
      </div>
    );
  const data = await loadData(ctx, () => listBankConnectionHealth(ctx));
  if (!data.ok) return <PageProblem load={data} />;
  return (
    <div className="max-w-6xl">
      {header}
      {data.data.length === 0 ? (
        <EmptyState title="No bank connections" icon={Cable}>
          {ctx.company.name} has no host-to-host connection yet. An administrator sets one up through the Treasury API
          (see the bank channels guide).
        </EmptyState>
      ) : (
        <ConnectionHealth connections={data.data} />
      )}
    </div>
  );
}
