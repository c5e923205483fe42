import type { Metadata } from "next";
import { can } from "@/lib/auth/roles";
import { loadData, loadPage } from "@/lib/bff/page";
import { paymentRunForm } from "@/lib/bff/queries/payment-run";
import { NewBatchForm } from "@/components/payments/new-batch-form";
import { EmptyState, PageHeader, ProblemState } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "New payment batch" };

/**
 * New batch (treasurer): the currencies offered are those of the company's
 * active accounts; the form gets the accounts with their available balance,
 * the counterparties for the typeahead and the API's payment-run extensions.
 */
export default async function NewBatchPage() {
  const load = await loadPage("payments", { company: "required" });
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  if (!can(ctx.user.roles, "payments.write"))
    return <ProblemState kind="forbidden" title="No access" message="Only treasurers create payment batches." />;
  const data = await loadData(ctx, () => paymentRunForm(ctx));
  if (!data.ok) return <PageProblem load={data} />;
  const f = data.data;
  return (
    <div className="max-w-6xl">
      <PageHeader
        title="New payment batch"
        description={`Instructions paid from an account of ${ctx.company.name} in the batch currency`}
      />
      {f.currencies.length === 0 ? (
        <EmptyState title="No account to pay from">
          The company has no active account; a batch needs an account in its currency.
        </EmptyState>
      ) : (
        <NewBatchForm
          key={ctx.company.id}
          companyId={ctx.company.id}
          companyName={ctx.company.name}
          currencies={f.currencies}
          today={f.today}
          accounts={f.accounts}
          payees={f.payees}
          support={f.support}
        />
      )}
    </div>
  );
}
