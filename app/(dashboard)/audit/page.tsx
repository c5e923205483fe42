import type { Metadata } from "next";
import { ScrollText } from "lucide-react";
import { loadData, loadPage } from "@/lib/bff/page";
import { listAuditEvents } from "@/lib/bff/queries/audit";
import { EmptyState, PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";
import { Table, Td, Th } from "@/components/ui/table";
import { formatDateTime } from "@/lib/dates";

export const metadata: Metadata = { title: "Audit" };

/** The dashboard's append-only audit log, newest first. */
export default async function AuditPage() {
  const load = await loadPage("audit");
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const events = await loadData(ctx, () => listAuditEvents(ctx, { limit: 200 }));
  if (!events.ok) return <PageProblem load={events} />;
  const names = new Map(ctx.companies.map((c) => [c.id, c.name]));
  return (
    <div className="max-w-6xl">
      <PageHeader title="Audit" description="Every sign-in and every successful change made through the dashboard" />
      {events.data.items.length === 0 ? (
        <EmptyState title="No audit events yet" icon={ScrollText}>
          Sign-ins and changes made through the dashboard are recorded here.
        </EmptyState>
      ) : (
        <Table label="Audit events">
          <thead>
            <tr>
              <Th>Time</Th>
              <Th>User</Th>
              <Th>Action</Th>
              <Th>Object</Th>
              <Th>Company</Th>
              <Th>Outcome</Th>
            </tr>
          </thead>
          <tbody>
            {events.data.items.map((e) => (
              <tr key={e.id}>
                <Td className="whitespace-nowrap text-slate-600">{formatDateTime(e.at)}</Td>
                <Td>{e.user_email}</Td>
                <Td mono>{e.action}</Td>
                <Td mono title={e.object_id ?? undefined}>
                  {e.object_type}
                  {e.object_id ? ` ${e.object_id.slice(0, 8)}` : ""}
                </Td>
                <Td>{e.company_id ? (names.get(e.company_id) ?? e.company_id.slice(0, 8)) : "—"}</Td>
                <Td>{e.outcome}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}
