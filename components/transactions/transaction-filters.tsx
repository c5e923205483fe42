"use client";

import type { ResolvedRange } from "@/lib/url-state/date-range";
import { FilterSelect, FilterText } from "@/components/list-controls/controls";
import { DateRangePicker } from "@/components/list-controls/date-range-picker";

export interface TransactionFilterValues {
  direction: "credit" | "debit" | null;
  currency: string | null;
  account: string | null;
  q: string | null;
}

/**
 * The filters of the transactions list in two rows that wrap
 * as units: the date range (presets, from, to) on the first, the selects and
 * the search on the second. Each row wraps on its own, so on a narrow
 * window a control moves to the next line whole instead of the range being
 * torn between the selects.
 */
export function TransactionFilters({
  range,
  values,
  currencies,
  accounts,
  showAccount,
  onChange,
}: {
  range: ResolvedRange;
  values: TransactionFilterValues;
  currencies: string[];
  accounts: { id: string; name: string; currency: string }[];
  showAccount: boolean;
  onChange: (patch: Partial<TransactionFilterValues>) => void;
}) {
  return (
    <div
      className="mb-3 flex flex-col gap-3 rounded-lg border border-slate-200 bg-white px-3 py-3"
      role="search"
      aria-label="Filter transactions"
      data-testid="transaction-filters"
    >
      <DateRangePicker resolved={range} shallow />
      <div className="flex flex-wrap items-end gap-x-3 gap-y-2">
        <FilterSelect
          label="Direction"
          value={values.direction}
          options={[
            { value: "credit", label: "In (credit)" },
            { value: "debit", label: "Out (debit)" },
          ]}
          onChange={(v) => onChange({ direction: v === "credit" || v === "debit" ? v : null })}
          testId="filter-direction"
        />
        <FilterSelect
          label="Currency"
          value={values.currency}
          options={currencies.map((c) => ({ value: c, label: c }))}
          onChange={(v) => onChange({ currency: v })}
          testId="filter-currency"
        />
        {showAccount && (
          <FilterSelect
            label="Account"
            value={values.account}
            options={accounts.map((a) => ({ value: a.id, label: `${a.name} (${a.currency})` }))}
            onChange={(v) => onChange({ account: v })}
            testId="filter-account"
          />
        )}
        <FilterText
          label="Search"
          value={values.q}
          placeholder="Name, remittance, ref."
          onChange={(v) => onChange({ q: v })}
          testId="filter-text"
        />
      </div>
    </div>
  );
}
