import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { loadData, loadPage } from "@/lib/bff/page";
import { allAccounts, listAccountRows } from "@/lib/bff/queries/account-rows";
import { missingStatements } from "@/lib/bff/queries/missing-statements";
import { loadAccountFilters } from "@/lib/url-state/filters";
import { isIso4217 } from "@treasury/contract";
import { AccountsView } from "@/components/accounts/accounts-view";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";
import { RetryProblem } from "@/components/ui/retry-problem";

export const metadata: Metadata = { title: "Accounts" };

/**
 * Accounts: parse the URL, read the page through the BFF —
 * API paging when only spec filters are set, every account of the company
 * when a bank / coverage filter or a sort is set — and render, each account
 * with an overdue statement named (docs/bank-files.md "Missing statements").
 */
export default async function AccountsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const load = await loadPage("accounts", { company: "required" });
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const f = await loadAccountFilters(searchParams);
  const currency = f.currency && isIso4217(f.currency) ? f.currency : undefined;
  const [data, all, overdue] = await Promise.all([
    loadData(ctx, () =>
      listAccountRows(ctx, {
        page: f.page ?? undefined,
        currency,
        status: f.status ?? undefined,
        bank: f.bank,
        coverage: f.coverage,
        sort: f.sort,
      }),
    ),
    // The currency and bank choices come from every account of the company, not only the filtered page.
    loadData(ctx, () => allAccounts(ctx)),
    // Overdue statements (docs/bank-files.md "Missing statements"): a failed read shows the list without them.
    loadData(ctx, () => missingStatements(ctx)),
  ]);
  if (!data.ok)
    return <RetryProblem title={data.title} message={data.message} requestId={data.requestId} kind={data.kind} />;
  const choices = (pick: (a: { currency: string; bank_name: string }) => string) =>
    all.ok ? [...new Set(all.data.map(pick))].sort() : [];
  return (
    <div className="max-w-7xl">
      <PageHeader
        title="Accounts"
        description={
          `Bank accounts of ${ctx.company.name}, with the latest balances and statement coverage of the ` +
          `last 7 days`
        }
      />
      <AccountsView
        data={data.data}
        currencies={choices((a) => a.currency)}
        banks={choices((a) => a.bank_name)}
        overdue={overdue.ok ? (overdue.data ?? []) : []}
      />
    </div>
  );
}
