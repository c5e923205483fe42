import type { Metadata } from "next";
import Link from "next/link";
import { loadData, loadPage } from "@/lib/bff/page";
import { listKoncerner } from "@/lib/bff/queries/organization";
import { EmptyState, PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";
import { Table, Td, Th } from "@/components/ui/table";
import { RetryProblem } from "@/components/ui/retry-problem";

export const metadata: Metadata = { title: "Organization" };

/** The companies the user may see and the corporate groups (koncerner) of the API client. */
export default async function OrganizationPage() {
  const load = await loadPage("organization");
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const koncerner = await loadData(ctx, () => listKoncerner(ctx, { page_size: 1000 }));
  return (
    <div className="max-w-5xl space-y-6">
      <PageHeader title="Organization" description="Companies you have access to, and corporate groups" />
      <section>
        <h2 className="mb-2 text-sm font-semibold text-slate-900">Companies</h2>
        {ctx.companies.length === 0 ? (
          <EmptyState title="No companies">You have no access to any company yet.</EmptyState>
        ) : (
          <Table label="Companies">
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Org. number</Th>
                <Th>Country</Th>
              </tr>
            </thead>
            <tbody>
              {ctx.companies.map((c) => (
                <tr key={c.id}>
                  <Td className="font-medium">{c.name}</Td>
                  <Td mono>{c.orgnr}</Td>
                  <Td>{c.country}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>
      <section>
        <h2 className="mb-2 text-sm font-semibold text-slate-900">Corporate groups</h2>
        {!koncerner.ok ? (
          <RetryProblem
            title={koncerner.title}
            message={koncerner.message}
            requestId={koncerner.requestId}
            kind={koncerner.kind}
          />
        ) : koncerner.data.items.length === 0 ? (
          <EmptyState title="No corporate groups">
            No corporate group (koncern) is registered for this API client.
          </EmptyState>
        ) : (
          <Table label="Corporate groups">
            <thead>
              <tr>
                <Th>Name</Th>
              </tr>
            </thead>
            <tbody>
              {koncerner.data.items.map((k) => (
                <tr key={k.id}>
                  <Td className="font-medium">
                    <Link href={`/organization/koncerner/${k.id}`} className="text-sky-800 hover:underline">
                      {k.name}
                    </Link>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>
    </div>
  );
}
