import type { Metadata } from "next";
import { GitCompareArrows } from "lucide-react";
import { loadPage } from "@/lib/bff/page";
import { AreaEmpty } from "@/components/ui/area-empty";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Reconciliation" };

export default async function Page() {
  const load = await loadPage("reconciliation");
  if (!load.ok) return <PageProblem load={load} />;
  const company = load.ctx.company?.name ?? "the selected company";
  return (
    <AreaEmpty title="Reconciliation" description={`Matches between payments and bank transactions for ${company}`} emptyTitle="No matches to review" icon={GitCompareArrows}>
      {`Proposed matches between payment instructions and booked transactions will be listed here with their score.`}
    </AreaEmpty>
  );
}
