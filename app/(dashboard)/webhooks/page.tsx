import type { Metadata } from "next";
import { Webhook } from "lucide-react";
import { loadPage } from "@/lib/bff/page";
import { AreaEmpty } from "@/components/ui/area-empty";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Webhooks" };

export default async function Page() {
  const load = await loadPage("webhooks");
  if (!load.ok) return <PageProblem load={load} />;
  return (
    <AreaEmpty title="Webhooks" description={"Endpoints that receive signed event notifications"} emptyTitle="No webhook endpoints shown" icon={Webhook}>
      {"Registered endpoints, their events and delivery logs will be managed here."}
    </AreaEmpty>
  );
}
