"use client";

import type { FlowTotal } from "@/lib/totals";
import { Amount } from "@/components/format/amount";

/**
 * The category filter of the transactions view: the categories of the loaded rows, plus the one chosen in the URL
 * (kept when no loaded row carries it). `onChange(null)` clears it.
 */
export function CategorySelect({
  categories,
  value,
  onChange,
}: {
  categories: string[];
  value: string | null;
  onChange: (category: string | null) => void;
}) {
  return (
    <label className="mb-2 flex items-center gap-2 text-[13px] text-slate-700">
      Category
      <select
        className="h-8 rounded-md border border-slate-300 bg-white px-2 text-[13px]"
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || null)}
      >
        <option value="">All categories</option>
        {[...new Set([...categories, ...(value ? [value] : [])])].map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Inflow, outflow and net per currency of the rows shown (exact decimals; `totals` null while decimal.js loads),
 * "matching rows" while a search is set, "loaded so far" while pages remain.
 */
export function TransactionTotals({
  totals,
  searching,
  partial,
}: {
  totals: FlowTotal[] | null;
  searching: boolean;
  partial: boolean;
}) {
  return (
    <div
      className={
        "mt-3 flex flex-wrap gap-x-8 gap-y-2 rounded-lg border border-slate-200 bg-white px-4 " + "py-3 text-[13px]"
      }
      data-testid="transaction-totals"
      aria-busy={totals === null}
    >
      {(totals ?? []).map((t) => (
        <div key={t.currency} data-currency={t.currency}>
          <div className="text-xs text-slate-500">
            {t.currency} · {t.count.toLocaleString()} {searching ? "matching rows" : "rows"}
            {partial ? " loaded so far" : ""}
          </div>
          <div className="flex flex-wrap gap-x-4">
            <span>
              In <Amount value={t.inflow} currency={t.currency} />
            </span>
            <span>
              Out <Amount value={t.outflow === "0" ? t.outflow : `-${t.outflow}`} currency={t.currency} />
            </span>
            <span className="font-semibold">
              Net <Amount value={t.net} currency={t.currency} signed />
            </span>
          </div>
        </div>
      ))}
    </div>
  );
}
