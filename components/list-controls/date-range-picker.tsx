"use client";

import { useQueryStates } from "nuqs";
import { DATE_PRESETS, DATE_PRESET_LABELS, dateRangeParsers, type ResolvedRange } from "@/lib/url-state/date-range";
import { DateField } from "@/components/ui/date-field";

/**
 * Date range with presets: this month, last 30 / 90 days, year
 * to date, custom. State lives in the URL (`range`, `from`, `to`); a change
 * re-renders the server page (`shallow: false`), which resolves the range.
 * `resolved` is what the server resolved, shown in the date inputs.
 */
export function DateRangePicker({ resolved, shallow = false }: { resolved: ResolvedRange; shallow?: boolean }) {
  const [, setState] = useQueryStates(dateRangeParsers, { shallow, history: "push" });
  return (
    <fieldset className="flex flex-wrap items-end gap-2">
      <legend className="sr-only">Date range</legend>
      <div
        className="flex overflow-hidden rounded-md border border-slate-300 bg-white"
        role="group"
        aria-label="Date range preset"
      >
        {DATE_PRESETS.filter((p) => p !== "custom").map((p) => (
          <button
            key={p}
            type="button"
            aria-pressed={resolved.preset === p}
            onClick={() => setState({ range: p, from: null, to: null })}
            className={
              // At least 32 px high, and higher when a phone wraps a label onto two lines (never clipped).
              `min-h-8 border-r border-slate-200 px-2.5 py-1 text-[13px] leading-tight last:border-r-0 ` +
              `${resolved.preset === p ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"}`
            }
          >
            {DATE_PRESET_LABELS[p]}
          </button>
        ))}
      </div>
      {/* From and To wrap as one unit. */}
      <div className="flex items-start gap-2">
        <DateField
          label="From"
          value={resolved.from_date}
          max={resolved.to_date}
          onChange={(v) => v && setState({ range: "custom", from: v, to: resolved.to_date })}
          testId="range-from"
        />
        <DateField
          label="To"
          value={resolved.to_date}
          min={resolved.from_date}
          onChange={(v) => v && setState({ range: "custom", from: resolved.from_date, to: v })}
          testId="range-to"
        />
      </div>
    </fieldset>
  );
}
