import type { Metadata } from "next";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import type { SearchParams } from "nuqs/server";
import { can } from "@/lib/auth/roles";
import { loadData, loadPage } from "@/lib/bff/page";
import { UnmatchedViewQuery, listUnmatchedView } from "@/lib/bff/queries/unmatched";
import { hydrate } from "@/components/data/hydrate";
import { getQueryClient } from "@/components/data/query-client";
import { ReconciliationNav } from "@/components/reconciliation/reconciliation-nav";
import { UnmatchedView } from "@/components/reconciliation/unmatched-view";
import {
  loadUnmatchedFilters,
  unmatchedFilters,
  unmatchedQueries,
} from "@/components/reconciliation/unmatched-queries";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Unmatched · Reconciliation" };

/** Unmatched payments and bank debits: parse the URL, prefetch the page, hand over to the client. */
export default async function UnmatchedPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const load = await loadPage("reconciliation");
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const filters = unmatchedFilters(await loadUnmatchedFilters(searchParams));
  const qc = getQueryClient();
  // The URL's filters are valid by construction (the parsers drop anything else), so this parse cannot fail.
  const query = UnmatchedViewQuery.parse(filters);
  await hydrate(qc, unmatchedQueries.page(filters), () => loadData(ctx, () => listUnmatchedView(ctx, query)));
  const mayMatch = can(ctx.user.roles, "reconciliation.write");
  // A user limited to some companies sees the selected one unless they pick another of theirs.
  const companies = ctx.companies.map((c) => ({ id: c.id, name: c.name }));
  return (
    <div className="max-w-7xl">
      <PageHeader
        title="Reconciliation"
        description="Executed payments and bank debits that no confirmed match explains yet, by age"
      />
      <ReconciliationNav current="unmatched" />
      <HydrationBoundary state={dehydrate(qc)}>
        <UnmatchedView mayMatch={mayMatch} companies={companies} allCompanies={ctx.user.companyIds === null} />
      </HydrationBoundary>
    </div>
  );
}
