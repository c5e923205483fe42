import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { SearchParams } from "nuqs/server";
import { ChevronLeft } from "lucide-react";
import { loadData, loadPage } from "@/lib/bff/page";
import { getAccountDetail, getIntradayPoints } from "@/lib/bff/queries/views";
import { listTransactions } from "@/lib/bff/queries/ledger";
import { todayUtc } from "@/lib/dates";
import { Uuid } from "@treasury/contract";
import { intradayQuery, loadIntradayState } from "@/lib/url-state/intraday";
import { resolveDateRange } from "@/lib/url-state/date-range";
import { loadTransactionFilters } from "@/lib/url-state/filters";
import { AccountHeader } from "@/components/accounts/account-header";
import { IntradayPanel } from "@/components/accounts/intraday-panel";
import { BalancesTable } from "@/components/accounts/balances-table";
import { CoverageCalendar } from "@/components/statement-coverage/coverage-calendar";
import { TransactionsView } from "@/components/transactions/transactions-view";
import { TRANSACTIONS_PAGE_SIZE, type TransactionQueryFilters } from "@/components/transactions/transaction-queries";
import { PageProblem } from "@/components/ui/page-problem";
import { RetryProblem } from "@/components/ui/retry-problem";
import { BackLink } from "@/components/ui/back-link";

export const metadata: Metadata = { title: "Account" };

/**
 * Account detail: balances header, intraday chart, 90-day coverage calendar, balances by type, the account's
 * transactions.
 */
export default async function AccountPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const load = await loadPage("accounts", { company: "required" });
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const { id } = await params;
  if (!Uuid.safeParse(id).success) notFound();
  const sp = await searchParams;
  const today = todayUtc();
  const iq = intradayQuery(loadIntradayState(sp), today);
  const tf = loadTransactionFilters(sp);
  const r = resolveDateRange(tf, today, "30d");
  const filters: TransactionQueryFilters = {
    from_date: r.from_date,
    to_date: r.to_date,
    account_id: id,
    ...(tf.direction ? { direction: tf.direction } : {}),
    ...(tf.currency ? { currency: tf.currency } : {}),
  };
  const [detail, points, first] = await Promise.all([
    loadData(ctx, () => getAccountDetail(ctx, id)),
    loadData(ctx, () => getIntradayPoints(ctx, id, iq)),
    loadData(ctx, () => listTransactions(ctx, { ...filters, page: 1, page_size: TRANSACTIONS_PAGE_SIZE })),
  ]);
  if (!detail.ok && detail.kind === "not-found") notFound();
  if (!detail.ok)
    return (
      <RetryProblem title={detail.title} message={detail.message} requestId={detail.requestId} kind={detail.kind} />
    );
  const { account, row, balances, coverage } = detail.data;
  return (
    <div className="max-w-7xl space-y-6">
      <div>
        <BackLink href="/accounts" icon={ChevronLeft}>
          Accounts
        </BackLink>
        <AccountHeader row={row} />
      </div>
      {points.ok ? (
        <IntradayPanel
          points={points.data}
          currency={account.currency}
          day={iq.day}
          span={iq.span}
          balanceType={iq.balance_type}
          today={today}
        />
      ) : (
        <RetryProblem
          title="Intraday balances could not be loaded"
          message={points.message}
          requestId={points.requestId}
        />
      )}
      <div className="grid gap-6 xl:grid-cols-[auto_1fr]">
        <section aria-labelledby="coverage-h" className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="coverage-h" className="mb-3 text-sm font-semibold text-slate-900">
            Statement coverage, last 90 days
          </h2>
          <CoverageCalendar cells={coverage} />
        </section>
        <section aria-labelledby="balances-h" className="min-w-0">
          <h2 id="balances-h" className="mb-2 text-sm font-semibold text-slate-900">
            Balances by type, last 30 days
          </h2>
          <BalancesTable balances={balances} />
        </section>
      </div>
      <section aria-labelledby="tx-h">
        <h2 id="tx-h" className="mb-2 text-sm font-semibold text-slate-900">
          Transactions
        </h2>
        {first.ok ? (
          <TransactionsView
            companyId={ctx.company.id}
            today={today}
            currencies={[account.currency]}
            accounts={[{ id: account.id, name: account.name, currency: account.currency }]}
            fixedAccountId={account.id}
            initial={{ filters, page: first.data }}
          />
        ) : (
          <RetryProblem title="Transactions could not be loaded" message={first.message} requestId={first.requestId} />
        )}
      </section>
    </div>
  );
}
