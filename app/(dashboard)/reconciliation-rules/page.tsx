import type { Metadata } from "next";
import { loadPageData } from "@/lib/bff/page";
import { autoRulesView } from "@/lib/bff/queries/auto-rules";
import { AdminPage } from "@/components/ui/admin-page";
import { AutoRulesAdmin } from "@/components/reconciliation-rules/rules-admin";

export const metadata: Metadata = { title: "Auto-confirm rules" };

/** Reconciliation auto-confirm rules (admin): the rules and a form; whether a rule's confirmation can be undone. */
export default async function AutoRulesPage() {
  const result = await loadPageData("reconciliation-rules", (ctx) => autoRulesView(ctx));
  return (
    <AdminPage
      result={result}
      title="Auto-confirm rules"
      description="Proposed reconciliation matches that meet a rule are confirmed automatically, in the rule's name"
    >
      {(data) => <AutoRulesAdmin initial={data} />}
    </AdminPage>
  );
}
