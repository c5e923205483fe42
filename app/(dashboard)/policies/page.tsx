import type { Metadata } from "next";
import { loadPageData } from "@/lib/bff/page";
import { policiesView } from "@/lib/bff/queries/policies";
import { AdminPage } from "@/components/ui/admin-page";
import { PoliciesAdmin } from "@/components/policies/policies-admin";

export const metadata: Metadata = { title: "Approval policies" };

/** Approval policies (admin): the ordered rules and the approver groups. */
export default async function PoliciesPage() {
  const result = await loadPageData("policies", () => policiesView());
  return (
    <AdminPage
      result={result}
      title="Approval policies"
      description="The first rule that matches a batch at submission decides how many approvals it needs and who may give them"
    >
      {(data) => <PoliciesAdmin initial={data} />}
    </AdminPage>
  );
}
