import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { loadData, loadPage } from "@/lib/bff/page";
import { listAccounts, listTransactions } from "@/lib/bff/queries/ledger";
import { todayUtc } from "@/lib/dates";
import { resolveDateRange } from "@/lib/url-state/date-range";
import { loadTransactionFilters } from "@/lib/url-state/filters";
import { TransactionsView } from "@/components/transactions/transactions-view";
import { TRANSACTIONS_PAGE_SIZE, type TransactionQueryFilters } from "@/components/transactions/transaction-queries";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";
import { RetryProblem } from "@/components/ui/retry-problem";

export const metadata: Metadata = { title: "Transactions" };

/** Transactions: parse the URL, prefetch the first page through the BFF, hand over to the client list. */
export default async function TransactionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const load = await loadPage("transactions", { company: "required" });
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const f = await loadTransactionFilters(searchParams);
  const today = todayUtc();
  const r = resolveDateRange(f, today, "30d");
  const filters: TransactionQueryFilters = {
    from_date: r.from_date,
    to_date: r.to_date,
    ...(f.direction ? { direction: f.direction } : {}),
    ...(f.currency ? { currency: f.currency } : {}),
    ...(f.account ? { account_id: f.account } : {}),
  };
  const [accounts, first] = await Promise.all([
    loadData(ctx, () => listAccounts(ctx, { page_size: 1000 })),
    loadData(ctx, () => listTransactions(ctx, { ...filters, page: 1, page_size: TRANSACTIONS_PAGE_SIZE })),
  ]);
  if (!first.ok)
    return <RetryProblem title={first.title} message={first.message} requestId={first.requestId} kind={first.kind} />;
  const list = accounts.ok ? accounts.data.items.map((a) => ({ id: a.id, name: a.name, currency: a.currency })) : [];
  return (
    <div className="max-w-7xl">
      <PageHeader title="Transactions" description={`What came in and went out at ${ctx.company.name}`} />
      <TransactionsView
        companyId={ctx.company.id}
        today={today}
        currencies={[...new Set(list.map((a) => a.currency))].sort()}
        accounts={list}
        initial={{ filters, page: first.data }}
      />
    </div>
  );
}
