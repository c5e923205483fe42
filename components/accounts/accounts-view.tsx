"use client";

import { useQueryStates } from "nuqs";
import { useTransition } from "react";
import { Info, Landmark } from "lucide-react";
import type { AccountListView } from "@/lib/views/account-list";
import type { OverdueAccount } from "@/lib/views/overdue-statements";
import { accountFilterParsers, sortToState, stateToSort } from "@/lib/url-state/filters";
import { AccountsDataTable } from "@/components/tables/accounts-table";
import { Amount } from "@/components/format/amount";
import { EmptyState } from "@/components/ui/states";
import { FilterBar, FilterSelect, PagerOf } from "@/components/list-controls/controls";

/**
 * The accounts list. Every filter, the sort and the page are in
 * the URL and re-run the server read (`shallow: false`): currency and status
 * are spec filters sent upstream; bank, coverage gaps and sorting are
 * applied by the BFF to every account of the company
 * (`lib/bff/queries/account-rows`), never to one page only.
 */
export function AccountsView({
  data,
  currencies,
  banks,
  overdue,
}: {
  data: AccountListView;
  currencies: string[];
  banks: string[];
  /** Accounts with an overdue statement (lib/views/overdue-statements.ts); absent when the API does not tell. */
  overdue?: readonly OverdueAccount[];
}) {
  const [pending, startTransition] = useTransition();
  const [f, setF] = useQueryStates(accountFilterParsers, { history: "push", shallow: false, startTransition });
  const { page, totals } = data;
  const filtered = Boolean(f.currency || f.status || f.bank || f.coverage);
  const count = page.count ?? page.items.length;

  return (
    <div aria-busy={pending}>
      <FilterBar
        actions={
          pending ? (
            <span className="text-xs text-slate-600" role="status" data-testid="accounts-pending">
              {f.coverage || f.sort?.endsWith("balance") || f.sort?.endsWith("available")
                ? "Reading every account's balances and statements…"
                : "Loading…"}
            </span>
          ) : null
        }
      >
        <FilterSelect
          label="Currency"
          value={f.currency}
          options={currencies.map((c) => ({ value: c, label: c }))}
          onChange={(v) => setF({ currency: v, page: null })}
          testId="filter-currency"
        />
        <FilterSelect
          label="Bank"
          value={f.bank}
          options={banks.map((b) => ({ value: b, label: b }))}
          onChange={(v) => setF({ bank: v, page: null })}
          testId="filter-bank"
        />
        <FilterSelect
          label="Status"
          value={f.status}
          options={[
            { value: "active", label: "Active" },
            { value: "closed", label: "Closed" },
          ]}
          onChange={(v) => setF({ status: v === "active" || v === "closed" ? v : null, page: null })}
          testId="filter-status"
        />
        <FilterSelect
          label="Coverage"
          value={f.coverage}
          anyLabel="All accounts"
          options={[{ value: "gaps", label: "With gaps (7 days)" }]}
          onChange={(v) => setF({ coverage: v === "gaps" ? "gaps" : null, page: null })}
          testId="filter-coverage"
        />
        {filtered && (
          <button
            type="button"
            className="h-8 self-end px-2 text-[13px] font-medium text-sky-700 hover:underline"
            onClick={() => setF({ currency: null, bank: null, status: null, coverage: null, page: null })}
          >
            Clear filters
          </button>
        )}
      </FilterBar>
      {data.notice && (
        <p
          className={
            "mb-3 flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 " +
            "text-[13px] text-amber-900"
          }
          role="note"
          data-testid="accounts-notice"
        >
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
          {data.notice}
        </p>
      )}
      {page.items.length === 0 ? (
        <EmptyState title={filtered ? "No accounts match these filters" : "No bank accounts yet"} icon={Landmark}>
          {filtered
            ? "The filters were applied to every account of the company. Clear a filter to see more accounts."
            : "Accounts appear here once the bank delivers statements or an administrator adds one."}
        </EmptyState>
      ) : (
        <>
          <AccountsDataTable
            rows={page.items}
            sorting={sortToState(f.sort)}
            onSortingChange={(s) => setF({ sort: stateToSort(s), page: null })}
            overdue={overdue}
          />
          <PagerOf page={page} onPage={(p) => setF({ page: p === 1 ? null : p })} />
          {(totals.totals.length > 0 || totals.scope === "all") && (
            <div
              className="mt-4 rounded-lg border border-slate-200 bg-white px-4 py-3"
              data-testid="account-totals"
              data-scope={totals.scope}
            >
              <h2 className="mb-2 text-xs font-medium uppercase tracking-wide text-slate-500">
                {totals.scope === "all"
                  ? `Booked balance of ${filtered ? "the" : "all"} ${count} ` +
                    `${filtered ? "matching " : ""}${count === 1 ? "account" : "accounts"}, per currency`
                  : "Booked balance on this page, per currency"}
              </h2>
              {totals.totals.length === 0 && (
                <p className="text-[13px] text-slate-600" data-testid="account-totals-none">
                  {count === 1 ? "The account has no" : "None of these accounts has a"} booked balance yet: no statement
                  has been received.
                </p>
              )}
              <dl className="flex flex-wrap gap-x-8 gap-y-2">
                {totals.totals.map((t) => (
                  <div key={t.currency}>
                    <dt className="text-xs text-slate-500">
                      {t.currency} · {t.count} {t.count === 1 ? "account" : "accounts"}
                    </dt>
                    <dd className="text-[15px] font-semibold" data-testid={`account-total-${t.currency}`}>
                      <Amount value={t.total} currency={t.currency} />
                    </dd>
                  </div>
                ))}
              </dl>
            </div>
          )}
        </>
      )}
    </div>
  );
}
