import type { Metadata } from "next";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import type { SearchParams } from "nuqs/server";
import { can } from "@/lib/auth/roles";
import { loadData, loadPage } from "@/lib/bff/page";
import { listCounterpartyViews } from "@/lib/bff/queries/counterparties";
import { hydrate } from "@/components/data/hydrate";
import { getQueryClient } from "@/components/data/query-client";
import { CounterpartiesView } from "@/components/counterparties/counterparties-view";
import {
  COUNTERPARTY_LIST_LIMIT,
  counterpartyQueries,
  loadCounterpartyFilters,
} from "@/components/counterparties/counterparty-queries";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Counterparties" };

/** Counterparties (payees) of the selected company under dual control: prefetch the filtered list. */
export default async function CounterpartiesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const load = await loadPage("counterparties", { company: "required" });
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const f = await loadCounterpartyFilters(searchParams);
  const filters = { search: f.q?.trim() || undefined, status: f.status ?? undefined };
  const qc = getQueryClient();
  await hydrate(qc, counterpartyQueries.list(ctx.company.id, filters), () =>
    loadData(ctx, () => listCounterpartyViews(ctx, { ...filters, limit: COUNTERPARTY_LIST_LIMIT })),
  );
  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Counterparties"
        description={
          `Payees of ${ctx.company.name}. New payees and changed bank details are verified by a second ` + `person.`
        }
      />
      <HydrationBoundary state={dehydrate(qc)}>
        <CounterpartiesView
          companyId={ctx.company.id}
          may={{
            manage: can(ctx.user.roles, "counterparties.manage"),
            verify: can(ctx.user.roles, "counterparties.verify"),
          }}
        />
      </HydrationBoundary>
    </div>
  );
}
