import type { Metadata } from "next";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import type { SearchParams } from "nuqs/server";
import { can } from "@/lib/auth/roles";
import { loadData, loadPage } from "@/lib/bff/page";
import { listBatches } from "@/lib/bff/queries/payments";
import { hydrate } from "@/components/data/hydrate";
import { getQueryClient } from "@/components/data/query-client";
import { BatchesView } from "@/components/payments/batches-view";
import {
  BATCHES_PAGE_SIZE,
  loadBatchFilters,
  paymentQueries,
  type BatchListFilters,
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
  const filters: BatchListFilters = {
    ...(f.status ? { status: f.status } : {}),
    ...(f.from ? { from_date: f.from } : {}),
    ...(f.to ? { to_date: f.to } : {}),
    ...(f.page && f.page > 1 ? { page: f.page } : {}),
  };
  const qc = getQueryClient();
  await hydrate(qc, paymentQueries.list(ctx.company.id, filters), () =>
    loadData(ctx, () => listBatches(ctx, { ...filters, status: f.status ?? undefined, page_size: BATCHES_PAGE_SIZE })),
  );
  return (
    <div className="max-w-6xl">
      <PageHeader title="Payments" description={`Payment batches of ${ctx.company.name}`} />
      <HydrationBoundary state={dehydrate(qc)}>
        <BatchesView companyId={ctx.company.id} mayCreate={can(ctx.user.roles, "payments.write")} />
      </HydrationBoundary>
    </div>
  );
}
