import type { Metadata } from "next";
import { loadData, loadPage } from "@/lib/bff/page";
import { getOverview } from "@/lib/bff/queries/views";
import { OverviewPanel } from "@/components/overview/overview-view";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";
import { RetryProblem } from "@/components/ui/retry-problem";

export const metadata: Metadata = { title: "Overview" };

/** Overview: how much cash, where it is heading, and what is waiting. */
export default async function OverviewPage() {
  const load = await loadPage("overview", { company: "required" });
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const data = await loadData(ctx, () => getOverview(ctx));
  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Overview"
        description={`${ctx.company.name} · org. no. ${ctx.company.orgnr} · ${ctx.company.country}`}
      />
      {data.ok ? (
        <OverviewPanel data={data.data} />
      ) : (
        <RetryProblem title={data.title} message={data.message} requestId={data.requestId} kind={data.kind} />
      )}
    </div>
  );
}
