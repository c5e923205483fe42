import type { Metadata } from "next";
import { loadData, loadPage } from "@/lib/bff/page";
import { autoRulesView } from "@/lib/bff/queries/auto-rules";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";
import { AutoRulesAdmin } from "@/components/reconciliation-rules/rules-admin";

export const metadata: Metadata = { title: "Auto-confirm rules" };

/** Reconciliation auto-confirm rules (admin): the rules and a form; whether a rule's confirmation can be undone. */
export default async function AutoRulesPage() {
  const load = await loadPage("reconciliation-rules");
  if (!load.ok) return <PageProblem load={load} />;
  const data = await loadData(load.ctx, () => autoRulesView(load.ctx));
  if (!data.ok) return <PageProblem load={data} />;
  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Auto-confirm rules"
        description="Proposed reconciliation matches that meet a rule are confirmed automatically, in the rule's name"
      />
      <AutoRulesAdmin initial={data.data} />
    </div>
  );
}
