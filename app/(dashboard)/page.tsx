import type { Metadata } from "next";
import Link from "next/link";
import { loadData, loadPage } from "@/lib/bff/page";
import { listAccounts } from "@/lib/bff/queries/ledger";
import { EmptyState, PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Overview" };

/** Overview of the selected company: its accounts per currency, and where to go next. */
export default async function OverviewPage() {
  const load = await loadPage("overview");
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  if (!ctx.company) return <EmptyState title="No company available">Ask an administrator to give you access to a company.</EmptyState>;
  const company = ctx.company;
  const accounts = await loadData(ctx, () => listAccounts(ctx, { page_size: 1000 }));
  if (!accounts.ok) return <PageProblem load={accounts} />;
  const perCurrency = new Map<string, number>();
  for (const a of accounts.data.items) perCurrency.set(a.currency, (perCurrency.get(a.currency) ?? 0) + 1);
  return (
    <div className="max-w-5xl">
      <PageHeader title="Overview" description={`${company.name} · org. no. ${company.orgnr} · ${company.country}`} />
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Bank accounts</dt>
          <dd className="mt-1 text-2xl font-semibold tabular" data-testid="overview-account-count">
            {accounts.data.items.length}
          </dd>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Currencies</dt>
          <dd className="mt-1 text-[13px] text-slate-800">{[...perCurrency.keys()].sort().join(" · ") || "—"}</dd>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Your companies</dt>
          <dd className="mt-1 text-2xl font-semibold tabular">{ctx.companies.length}</dd>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Signed in as</dt>
          <dd className="mt-1 text-[13px] text-slate-800">{ctx.user.roles.join(", ")}</dd>
        </div>
      </dl>
      <p className="mt-6 text-[13px] text-slate-600">
        Balances and cash positions will be charted here. Until then, see{" "}
        <Link className="font-medium text-sky-700 hover:underline" href="/accounts">
          accounts
        </Link>{" "}
        and{" "}
        <Link className="font-medium text-sky-700 hover:underline" href="/transactions">
          transactions
        </Link>
        .
      </p>
    </div>
  );
}
