import type { Metadata } from "next";
import { loadData, loadPage } from "@/lib/bff/page";
import { policiesView } from "@/lib/bff/queries/policies";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";
import { PoliciesAdmin } from "@/components/policies/policies-admin";

export const metadata: Metadata = { title: "Approval policies" };

/** Approval policies (admin): the ordered rules and the approver groups. */
export default async function PoliciesPage() {
  const load = await loadPage("policies");
  if (!load.ok) return <PageProblem load={load} />;
  const data = await loadData(load.ctx, () => policiesView());
  if (!data.ok) return <PageProblem load={data} />;
  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Approval policies"
        description="The first rule that matches a batch at submission decides how many approvals it needs and who may give them"
      />
      <PoliciesAdmin initial={data.data} />
    </div>
  );
}
