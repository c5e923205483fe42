import type { Metadata } from "next";
import { FileUp } from "lucide-react";
import { loadPage } from "@/lib/bff/page";
import { statementUploadAvailable } from "@/lib/bff/queries/statements";
import { StatementUpload } from "@/components/statements/statement-upload";
import { EmptyState, PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Statements" };

/**
 * Statement import (admins): upload ISO 20022 camt files where the API offers POST /statements; otherwise say where
 * statements come from.
 */
export default async function StatementsPage() {
  const load = await loadPage("statements");
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const available = await statementUploadAvailable();
  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Statements"
        description={ctx.company ? `Bank statement files for ${ctx.company.name}` : "Bank statement files"}
      />
      {!available ? (
        <EmptyState title="Statements arrive from the bank" icon={FileUp}>
          This Treasury API does not accept uploaded statement files. Account statements, intraday reports and
          notifications reach it directly from the banks, and their transactions and balances appear under Accounts and
          Transactions.
        </EmptyState>
      ) : !ctx.company ? (
        <EmptyState title="No company selected">Choose a company to import its statements.</EmptyState>
      ) : (
        <StatementUpload companyName={ctx.company.name} />
      )}
    </div>
  );
}
