import type { Metadata } from "next";
import { CheckCheck } from "lucide-react";
import { loadPage } from "@/lib/bff/page";
import { AreaEmpty } from "@/components/ui/area-empty";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Approvals" };

export default async function Page() {
  const load = await loadPage("approvals");
  if (!load.ok) return <PageProblem load={load} />;
  return (
    <AreaEmpty title="Approvals" description={"Approval requests across your companies"} emptyTitle="Nothing waiting for approval" icon={CheckCheck}>
      {"Payment batches submitted for approval in your companies will be queued here. Four-eyes: you cannot approve a batch you created."}
    </AreaEmpty>
  );
}
