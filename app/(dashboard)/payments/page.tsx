import type { Metadata } from "next";
import { Send } from "lucide-react";
import { loadPage } from "@/lib/bff/page";
import { AreaEmpty } from "@/components/ui/area-empty";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Payments" };

export default async function Page() {
  const load = await loadPage("payments");
  if (!load.ok) return <PageProblem load={load} />;
  const company = load.ctx.company?.name ?? "the selected company";
  return (
    <AreaEmpty title="Payments" description={`Payment batches of ${company}`} emptyTitle="No payment batches to show" icon={Send}>
      {`Payment batches of ${company}, their status and instructions will be listed here.`}
    </AreaEmpty>
  );
}
