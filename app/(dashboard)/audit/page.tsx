import type { Metadata } from "next";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import type { SearchParams } from "nuqs/server";
import { loadData, loadPage } from "@/lib/bff/page";
import { listAuditEvents } from "@/lib/bff/queries/audit";
import { hydrate } from "@/components/data/hydrate";
import { getQueryClient } from "@/components/data/query-client";
import { AuditLog } from "@/components/audit/audit-log";
import { auditLogQueries, loadAuditFilters } from "@/components/audit/audit-queries";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Audit" };

/** The dashboard's audit log (approver and admin), newest first. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const load = await loadPage("audit");
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const f = await loadAuditFilters(searchParams);
  const qc = getQueryClient();
  await hydrate(qc, auditLogQueries.list(f.action, f.events), () =>
    loadData(ctx, () => listAuditEvents(ctx, { action: f.action ?? undefined, kind: f.events, limit: 500 })),
  );
  return (
    <div className="max-w-7xl">
      <PageHeader
        title="Audit"
        description="Who did what through the dashboard: business events first, sign-ins one click away"
      />
      <HydrationBoundary state={dehydrate(qc)}>
        <AuditLog companies={ctx.companies.map((c) => ({ id: c.id, name: c.name }))} />
      </HydrationBoundary>
    </div>
  );
}
