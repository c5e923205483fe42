import type { Metadata } from "next";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { loadData, loadPage } from "@/lib/bff/page";
import { listAccounts } from "@/lib/bff/queries/ledger";
import { makeQueryClient } from "@/components/data/query-client";
import { accountQueries } from "@/components/data/queries";
import { AccountsTable } from "@/components/accounts/accounts-table";
import { EmptyState, PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Accounts" };

/** Thin page: context, server prefetch with the same query function as the BFF route, hydrate. */
export default async function AccountsPage() {
  const load = await loadPage("accounts");
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  if (!ctx.company) return <EmptyState title="No company available">Ask an administrator to give you access to a company.</EmptyState>;
  const company = ctx.company;
  const data = await loadData(ctx, () => listAccounts(ctx, { page_size: 200 }));
  if (!data.ok) return <PageProblem load={data} />;
  const qc = makeQueryClient();
  qc.setQueryData(accountQueries.list(company.id).queryKey, data.data);
  return (
    <div className="max-w-6xl">
      <PageHeader title="Accounts" description={`Bank accounts of ${company.name}`} />
      <HydrationBoundary state={dehydrate(qc)}>
        <AccountsTable companyId={company.id} companyName={company.name} />
      </HydrationBoundary>
    </div>
  );
}
