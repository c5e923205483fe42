import type { Metadata } from "next";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { loadData, loadPage } from "@/lib/bff/page";
import { listApprovalQueue } from "@/lib/bff/queries/payment-views";
import { hydrate } from "@/components/data/hydrate";
import { getQueryClient } from "@/components/data/query-client";
import { ApprovalQueue } from "@/components/approvals/approval-queue";
import { approvalQueries } from "@/components/approvals/approval-queries";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Approvals" };

/** The approval queue (approver): prefetch the queue across the user's companies. */
export default async function ApprovalsPage() {
  const load = await loadPage("approvals");
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const qc = getQueryClient();
  const queue = await hydrate(qc, approvalQueries.queue(), () => loadData(ctx, () => listApprovalQueue(ctx)));
  if (!queue.ok) return <PageProblem load={queue} />;
  return (
    <div className="max-w-7xl">
      <PageHeader title="Approvals" description="Payment batches waiting for a decision, across your companies" />
      <HydrationBoundary state={dehydrate(qc)}>
        <ApprovalQueue me={ctx.user.email} currentCompanyId={ctx.company?.id ?? null} />
      </HydrationBoundary>
    </div>
  );
}
