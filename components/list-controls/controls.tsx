"use client";

import { DateField } from "@/components/ui/date-field";

import type { ReactNode } from "react";
import type { BffPage } from "@/lib/views/bff-page";

/** A labelled select for a filter bar; the empty option means "any". */
export function FilterSelect({
  label,
  value,
  options,
  onChange,
  anyLabel = "Any",
  testId,
}: {
  label: string;
  value: string | null;
  options: readonly { value: string; label: string }[];
  onChange: (v: string | null) => void;
  anyLabel?: string;
  testId?: string;
}) {
  return (
    <label className="flex min-w-0 flex-col gap-1 text-xs font-medium text-slate-600">
      {label}
      <select
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value === "" ? null : e.target.value)}
        className="h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-[13px] text-slate-900 sm:w-auto"
        data-testid={testId}
      >
        <option value="">{anyLabel}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A labelled text input for a filter bar. */
export function FilterText({
  label,
  value,
  onChange,
  placeholder,
  testId,
}: {
  label: string;
  value: string | null;
  onChange: (v: string | null) => void;
  placeholder?: string;
  testId?: string;
}) {
  return (
    <label className="flex min-w-0 flex-col gap-1 text-xs font-medium text-slate-600">
      {label}
      <input
        type="search"
        defaultValue={value ?? ""}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value.trim() === "" ? null : e.target.value)}
        className={
          "h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-[13px] text-slate-900 sm:w-48 " +
          "placeholder:text-slate-400"
        }
        data-testid={testId}
      />
    </label>
  );
}

/**
 * The row of filters above a table; on a phone two filters a row (each as wide as half the screen), so that the
 * list starts within the first screen.
 */
export function FilterBar({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
      <div className="grid w-full grid-cols-2 items-end gap-3 sm:flex sm:w-auto sm:flex-wrap" role="search">
        {children}
      </div>
      {actions && <div className="flex items-center gap-2">{actions}</div>}
    </div>
  );
}

/** Previous / next paging for server-paged lists (Form B pages; Form A has one page). */
export function Pager({
  page,
  totalPages,
  count,
  hasNext,
  hasPrevious,
  onPage,
}: {
  page: number;
  totalPages: number | null;
  count: number | null;
  hasNext: boolean;
  hasPrevious: boolean;
  onPage: (p: number) => void;
}) {
  if (!hasNext && !hasPrevious)
    return count !== null ? <p className="mt-2 text-xs text-slate-500">{count} in all</p> : null;
  const btn =
    "h-8 rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-700 hover:bg-slate-100 " +
    "disabled:opacity-50";
  return (
    <nav className="mt-3 flex items-center gap-2 text-[13px] text-slate-600" aria-label="Pages">
      <button type="button" className={btn} disabled={!hasPrevious} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="tabular">
        Page {page}
        {totalPages ? ` of ${totalPages}` : ""}
        {count !== null ? ` · ${count} in all` : ""}
      </span>
      <button type="button" className={btn} disabled={!hasNext} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/** A labelled date filter in the viewer's locale (`DateField`); clearing it sets null. */
export function FilterDate({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: string | null;
  onChange: (v: string | null) => void;
  testId?: string;
}) {
  return <DateField label={label} value={value} onChange={onChange} clearable testId={testId} />;
}

/** The `Pager` of one BFF list page. */
export function PagerOf({ page, onPage }: { page: BffPage<unknown>; onPage: (p: number) => void }) {
  return (
    <Pager
      page={page.page}
      totalPages={page.total_pages}
      count={page.count}
      hasNext={page.has_next}
      hasPrevious={page.has_previous}
      onPage={onPage}
    />
  );
}
