import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { Uuid } from "@treasury/contract";
import { loadData, loadPage } from "@/lib/bff/page";
import { getBatchView } from "@/lib/bff/queries/payment-views";
import { hydrate } from "@/components/data/hydrate";
import { getQueryClient } from "@/components/data/query-client";
import { BatchDetail } from "@/components/payments/batch-detail";
import { paymentQueries } from "@/components/payments/payment-queries";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Payment batch" };

/** One payment batch: prefetch the batch view, hand over to the live client view. */
export default async function BatchPage({ params }: { params: Promise<{ id: string }> }) {
  const load = await loadPage("payments", { company: "required" });
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const { id } = await params;
  if (!Uuid.safeParse(id).success) notFound();
  const qc = getQueryClient();
  const view = await hydrate(qc, paymentQueries.view(ctx.company.id, id), () =>
    loadData(ctx, () => getBatchView(ctx, id)),
  );
  if (!view.ok) return <PageProblem load={view} />;
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <BatchDetail companyId={ctx.company.id} id={id} />
    </HydrationBoundary>
  );
}
