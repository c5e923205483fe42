import type { Metadata } from "next";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import type { SearchParams } from "nuqs/server";
import { can } from "@/lib/auth/roles";
import { loadData, loadPage } from "@/lib/bff/page";
import { listBatchRows } from "@/lib/bff/queries/payment-views";
import { hydrate } from "@/components/data/hydrate";
import { getQueryClient } from "@/components/data/query-client";
import { BatchesScope, BatchesView } from "@/components/payments/batches-view";
import {
  BATCHES_PAGE_SIZE,
  batchListFilters,
  loadBatchFilters,
  paymentQueries,
} from "@/components/payments/payment-queries";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Payments" };

/** Payment batches: parse the URL, prefetch the first page, hand over to the client list. */
export default async function PaymentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const load = await loadPage("payments", { company: "required" });
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const f = await loadBatchFilters(searchParams);
  const filters = batchListFilters(f);
  const qc = getQueryClient();
  await hydrate(qc, paymentQueries.list(ctx.company.id, filters), () =>
    loadData(ctx, () =>
      listBatchRows(ctx, { ...filters, status: f.status ?? undefined, page_size: BATCHES_PAGE_SIZE }),
    ),
  );
  return (
    <div className="max-w-7xl">
      <PageHeader title="Payments" description={<BatchesScope companyName={ctx.company.name} />} />
      <HydrationBoundary state={dehydrate(qc)}>
        <BatchesView
          companyId={ctx.company.id}
          mayCreate={can(ctx.user.roles, "payments.write")}
          companyCount={ctx.companies.length}
        />
      </HydrationBoundary>
    </div>
  );
}
