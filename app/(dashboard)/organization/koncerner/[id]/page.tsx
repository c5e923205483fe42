import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ChevronLeft } from "lucide-react";
import { loadData, loadPage } from "@/lib/bff/page";
import { getKoncern, getKoncernBreakdown } from "@/lib/bff/queries/organization";
import { Uuid } from "@treasury/contract";
import { KoncernBreakdownTable } from "@/components/organization/koncern-breakdown";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";
import { RetryProblem } from "@/components/ui/retry-problem";
import { BackLink } from "@/components/ui/back-link";

export const metadata: Metadata = { title: "Corporate group" };

/** A corporate group (koncern): its breakdown by company and currency, with totals per currency. */
export default async function KoncernPage({ params }: { params: Promise<{ id: string }> }) {
  const load = await loadPage("organization");
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const { id } = await params;
  if (!Uuid.safeParse(id).success) notFound();
  const [koncern, breakdown] = await Promise.all([
    loadData(ctx, () => getKoncern(ctx, id)),
    loadData(ctx, () => getKoncernBreakdown(ctx, id)),
  ]);
  if (!koncern.ok && koncern.kind === "not-found") notFound();
  if (!koncern.ok)
    return (
      <RetryProblem title={koncern.title} message={koncern.message} requestId={koncern.requestId} kind={koncern.kind} />
    );
  return (
    <div className="max-w-5xl">
      <BackLink href="/organization" icon={ChevronLeft}>
        Organization
      </BackLink>
      <PageHeader
        title={koncern.data.name}
        description="Balances by company and currency (latest closing booked), with totals per currency"
      />
      {breakdown.ok ? (
        <KoncernBreakdownTable data={breakdown.data} companies={ctx.companies} />
      ) : (
        <RetryProblem
          title={breakdown.title}
          message={breakdown.message}
          requestId={breakdown.requestId}
          kind={breakdown.kind}
        />
      )}
    </div>
  );
}
