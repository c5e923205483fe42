import type { Metadata } from "next";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { loadData, loadPage } from "@/lib/bff/page";
import { listWebhooks } from "@/lib/bff/queries/webhooks";
import { hydrate } from "@/components/data/hydrate";
import { getQueryClient } from "@/components/data/query-client";
import { WebhooksAdmin } from "@/components/webhooks/webhooks-admin";
import { webhookQueries } from "@/components/webhooks/webhook-queries";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Webhooks" };

/** Webhook admin (admin): prefetch the endpoints. */
export default async function WebhooksPage() {
  const load = await loadPage("webhooks");
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const qc = getQueryClient();
  await hydrate(qc, webhookQueries.list(), () => loadData(ctx, () => listWebhooks(ctx, { page_size: 200 })));
  return (
    <div className="max-w-6xl">
      <PageHeader title="Webhooks" description="Endpoints that receive signed events from the Treasury API" />
      <HydrationBoundary state={dehydrate(qc)}>
        <WebhooksAdmin />
      </HydrationBoundary>
    </div>
  );
}
