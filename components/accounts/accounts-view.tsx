"use client";

import { useQueryStates } from "nuqs";
import { useMemo } from "react";
import { Landmark } from "lucide-react";
import type { BffPage } from "@/lib/bff/inputs";
import type { AccountRow } from "@/lib/views/accounts";
import { accountFilterParsers, sortToState, stateToSort } from "@/lib/url-state/filters";
import { totalsByCurrency } from "@/lib/totals";
import { AccountsDataTable } from "@/components/tables/accounts-table";
import { Amount } from "@/components/format/amount";
import { EmptyState } from "@/components/ui/states";
import { FilterBar, FilterSelect, Pager } from "@/components/views/controls";

/**
 * The accounts list (issue 5 §2). Currency, status and page are spec list
 * filters and re-run the server read (`shallow: false`); bank, sorting and
 * the coverage-gap filter act on the loaded rows. All of it is in the URL.
 */
export function AccountsView({ data, currencies }: { data: BffPage<AccountRow>; currencies: string[] }) {
  const [f, setF] = useQueryStates(accountFilterParsers, { history: "replace" });
  const server = { shallow: false, history: "push" } as const;
  const rows = useMemo(() => (f.coverage === "gaps" ? data.items.filter((r) => r.coverage.some((c) => c.state !== "complete")) : data.items), [data.items, f.coverage]);
  const banks = useMemo(() => [...new Set(data.items.map((r) => r.account.bank_name))].sort(), [data.items]);
  const totals = useMemo(() => totalsByCurrency(rows.filter((r) => r.booked && (!f.bank || r.account.bank_name.toLowerCase().includes(f.bank.toLowerCase()))), (r) => r.booked?.currency ?? "", (r) => r.booked?.balance ?? "0"), [rows, f.bank]);
  const filtered = Boolean(f.currency || f.status || f.bank || f.coverage);

  return (
    <div>
      <FilterBar>
        <FilterSelect label="Currency" value={f.currency} options={currencies.map((c) => ({ value: c, label: c }))} onChange={(v) => setF({ currency: v, page: null }, server)} testId="filter-currency" />
        <FilterSelect label="Bank" value={f.bank} options={banks.map((b) => ({ value: b, label: b }))} onChange={(v) => setF({ bank: v })} testId="filter-bank" />
        <FilterSelect label="Status" value={f.status} options={[{ value: "active", label: "Active" }, { value: "closed", label: "Closed" }]} onChange={(v) => setF({ status: v === "active" || v === "closed" ? v : null, page: null }, server)} testId="filter-status" />
        <FilterSelect label="Coverage" value={f.coverage} anyLabel="All accounts" options={[{ value: "gaps", label: "With gaps (7 days)" }]} onChange={(v) => setF({ coverage: v === "gaps" ? "gaps" : null })} testId="filter-coverage" />
        {filtered && (
          <button type="button" className="h-8 self-end px-2 text-[13px] font-medium text-sky-700 hover:underline" onClick={() => setF({ currency: null, bank: null, status: null, coverage: null, page: null }, server)}>
            Clear filters
          </button>
        )}
      </FilterBar>
      {data.items.length === 0 ? (
        <EmptyState title={filtered ? "No accounts match these filters" : "No bank accounts yet"} icon={Landmark}>
          {filtered ? "Clear a filter to see more accounts." : "Accounts appear here once the bank delivers statements or an administrator adds one."}
        </EmptyState>
      ) : (
        <>
          <AccountsDataTable rows={rows} sorting={sortToState(f.sort)} onSortingChange={(s) => setF({ sort: stateToSort(s) })} bank={f.bank} currency={null} />
          <Pager page={data.page} totalPages={data.total_pages} count={data.count} hasNext={data.has_next} hasPrevious={data.has_previous} onPage={(p) => setF({ page: p === 1 ? null : p }, server)} />
          {totals.length > 0 && (
            <div className="mt-4 rounded-lg border border-slate-200 bg-white px-4 py-3" data-testid="account-totals">
              <h2 className="mb-2 text-xs font-medium uppercase tracking-wide text-slate-500">Booked balance on this page, per currency</h2>
              <dl className="flex flex-wrap gap-x-8 gap-y-2">
                {totals.map((t) => (
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
