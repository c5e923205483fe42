import type { Metadata } from "next";
import { can } from "@/lib/auth/roles";
import { loadData, loadPage } from "@/lib/bff/page";
import { listAccounts } from "@/lib/bff/queries/ledger";
import { todayUtc } from "@/lib/dates";
import { NewBatchForm } from "@/components/payments/new-batch-form";
import { EmptyState, PageHeader, ProblemState } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "New payment batch" };

/** New batch (treasurer): the currencies offered are those of the company's accounts. */
export default async function NewBatchPage() {
  const load = await loadPage("payments", { company: "required" });
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  if (!can(ctx.user.roles, "payments.write"))
    return <ProblemState kind="forbidden" title="No access" message="Only treasurers create payment batches." />;
  const accounts = await loadData(ctx, () => listAccounts(ctx, { page_size: 1000 }));
  const currencies = accounts.ok ? [...new Set(accounts.data.items.map((a) => a.currency))].sort() : [];
  return (
    <div className="max-w-6xl">
      <PageHeader
        title="New payment batch"
        description={`Instructions paid from an account of ${ctx.company.name} in the batch currency`}
      />
      {currencies.length === 0 ? (
        <EmptyState title="No account to pay from">
          The company has no account; a batch needs an account in its currency.
        </EmptyState>
      ) : (
        <NewBatchForm
          key={ctx.company.id}
          companyId={ctx.company.id}
          companyName={ctx.company.name}
          currencies={currencies}
          today={todayUtc()}
        />
      )}
    </div>
  );
}
