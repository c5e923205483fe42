import type { Metadata } from "next";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import type { SearchParams } from "nuqs/server";
import { can } from "@/lib/auth/roles";
import { loadData, loadPage } from "@/lib/bff/page";
import { listMatchReview } from "@/lib/bff/queries/match-views";
import { hydrate } from "@/components/data/hydrate";
import { getQueryClient } from "@/components/data/query-client";
import { MatchReview } from "@/components/reconciliation/match-review";
import { loadMatchFilters, matchQueries, reviewFilters } from "@/components/reconciliation/match-queries";
import { PageHeader } from "@/components/ui/states";
import { ReconciliationNav } from "@/components/reconciliation/reconciliation-nav";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Reconciliation" };

/** Reconciliation review: parse the URL, prefetch the page of matches, hand over to the client. */
export default async function ReconciliationPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const load = await loadPage("reconciliation");
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const filters = reviewFilters(await loadMatchFilters(searchParams));
  const qc = getQueryClient();
  await hydrate(qc, matchQueries.review(filters), () => loadData(ctx, () => listMatchReview(ctx, filters)));
  const mayDecide = can(ctx.user.roles, "reconciliation.write");
  return (
    <div className="max-w-7xl">
      <PageHeader
        title="Reconciliation"
        description={
          mayDecide
            ? "Confirm or reject the matches proposed between payments and bank transactions"
            : "Matches between payments and bank transactions"
        }
      />
      <ReconciliationNav current="review" />
      <HydrationBoundary state={dehydrate(qc)}>
        <MatchReview mayDecide={mayDecide} />
      </HydrationBoundary>
    </div>
  );
}
