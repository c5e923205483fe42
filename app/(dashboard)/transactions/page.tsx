import type { Metadata } from "next";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { createLoader, parseAsInteger } from "nuqs/server";
import { loadData, loadPage } from "@/lib/bff/page";
import { listTransactions } from "@/lib/bff/queries/ledger";
import { makeQueryClient } from "@/components/data/query-client";
import { transactionQueries } from "@/components/data/queries";
import { TransactionsTable } from "@/components/transactions/transactions-table";
import { EmptyState, PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Transactions" };

const loadSearch = createLoader({ page: parseAsInteger.withDefault(1) });

export default async function TransactionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { page } = await loadSearch(searchParams);
  const load = await loadPage("transactions");
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  if (!ctx.company) return <EmptyState title="No company available">Ask an administrator to give you access to a company.</EmptyState>;
  const company = ctx.company;
  const data = await loadData(ctx, () => listTransactions(ctx, { page, page_size: 50 }));
  if (!data.ok) return <PageProblem load={data} />;
  const qc = makeQueryClient();
  qc.setQueryData(transactionQueries.list(company.id, { page }).queryKey, data.data);
  return (
    <div className="max-w-6xl">
      <PageHeader title="Transactions" description={`Booked transactions of ${company.name}`} />
      <HydrationBoundary state={dehydrate(qc)}>
        <TransactionsTable companyId={company.id} />
      </HydrationBoundary>
    </div>
  );
}
