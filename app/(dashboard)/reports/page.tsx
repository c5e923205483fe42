import type { Metadata } from "next";
import { BarChart3 } from "lucide-react";
import { loadPage } from "@/lib/bff/page";
import { AreaEmpty } from "@/components/ui/area-empty";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Reports" };

export default async function Page() {
  const load = await loadPage("reports");
  if (!load.ok) return <PageProblem load={load} />;
  const company = load.ctx.company?.name ?? "the selected company";
  return (
    <AreaEmpty title="Reports" description={`Cashflow, positions and forecast for ${company}`} emptyTitle="No report selected" icon={BarChart3}>
      {`Daily cashflow, cash positions and the forecast for ${company} will be shown here as tables and charts.`}
    </AreaEmpty>
  );
}
