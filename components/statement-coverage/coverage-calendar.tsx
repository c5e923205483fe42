"use client";

import { useMemo } from "react";
import type { CoverageCell, CoverageState } from "@/lib/views/coverage";
import { coverageSummary, missingSince } from "@/lib/views/coverage";
import { formatBusinessDate } from "@/lib/format-date";
import { useLocale } from "@/components/format/use-locale";

/** Colour and pattern per state; the pattern keeps the states apart without colour (WCAG 1.4.1). */
export const COVERAGE_STYLE: Record<CoverageState, { label: string; className: string }> = {
  complete: { label: "Complete", className: "bg-emerald-500" },
  partial: {
    label: "Partial",
    className: "bg-amber-400 bg-partial-stripes",
  },
  missing: {
    label: "Missing",
    className:
      "bg-white ring-1 ring-inset ring-red-400 " +
      "bg-[linear-gradient(45deg,transparent_44%,#f87171_44%,#f87171_56%,transparent_56%)]",
  },
};

/** Weekday of a `YYYY-MM-DD` (0 = Monday), computed in UTC so the day never shifts. */
function weekdayMon0(date: string): number {
  return (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
}

/**
 * A calendar of statement coverage (the last 90 days marking
 * complete, partial and missing days): weeks as columns, Monday to Sunday as
 * rows, like a contribution graph. Each day has a text alternative.
 */
export function CoverageCalendar({ cells }: { cells: readonly CoverageCell[] }) {
  const locale = useLocale();
  const weeks = useMemo(() => {
    const out: (CoverageCell | null)[][] = [];
    let week: (CoverageCell | null)[] = Array.from({ length: cells[0] ? weekdayMon0(cells[0].date) : 0 }, () => null);
    for (const c of cells) {
      week.push(c);
      if (week.length === 7) {
        out.push(week);
        week = [];
      }
    }
    if (week.length) out.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
    return out;
  }, [cells]);
  const summary = coverageSummary(cells);
  const since = missingSince(cells);
  const first = cells[0];
  const last = cells[cells.length - 1];
  if (!first || !last) return <p className="text-[13px] text-slate-600">No days to show.</p>;
  return (
    <div className="space-y-2" data-testid="coverage-calendar">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600">
        {(Object.keys(COVERAGE_STYLE) as CoverageState[]).map((s) => (
          <span key={s} className="flex items-center gap-1.5">
            <span className={`inline-block size-3 rounded-sm ${COVERAGE_STYLE[s].className}`} aria-hidden />
            {COVERAGE_STYLE[s].label}{" "}
            <span className="tabular text-slate-900" data-testid={`coverage-count-${s}`}>
              {summary[s]}
            </span>
          </span>
        ))}
        {since && (
          <span className="font-medium text-red-700" data-testid="coverage-missing-since">
            No complete statement since {formatBusinessDate(since, locale)}
          </span>
        )}
      </div>
      <div
        className="flex gap-[3px] overflow-x-auto pb-1"
        role="list"
        aria-label={
          `Statement coverage from ${formatBusinessDate(first.date, locale)} to ` +
          `${formatBusinessDate(last.date, locale)}`
        }
      >
        {weeks.map((w, i) => (
          <div key={i} className="flex flex-col gap-[3px]">
            {w.map((c, j) =>
              c ? (
                <span
                  key={c.date}
                  role="listitem"
                  title={
                    `${formatBusinessDate(c.date, locale, "long")}: ` +
                    `${COVERAGE_STYLE[c.state].label}${c.source ? ` (${c.source})` : ""}`
                  }
                  aria-label={`${formatBusinessDate(c.date, locale, "long")}: ${COVERAGE_STYLE[c.state].label}`}
                  data-state={c.state}
                  data-date={c.date}
                  className={`block size-3.5 rounded-sm ${COVERAGE_STYLE[c.state].className}`}
                />
              ) : (
                <span key={`pad-${j}`} className="block size-3.5" aria-hidden />
              ),
            )}
          </div>
        ))}
      </div>
    </div>
  );
}

/** A compact strip of the last days for a table cell (coverage of the last 7 days). */
export function CoverageStrip({ cells }: { cells: readonly CoverageCell[] }) {
  const locale = useLocale();
  const s = coverageSummary(cells);
  return (
    <span
      className="inline-flex items-center gap-[2px]"
      role="img"
      aria-label={`Last ${cells.length} days: ${s.complete} complete, ${s.partial} partial, ${s.missing} missing`}
      data-missing={s.missing + s.partial}
    >
      {cells.map((c) => (
        <span
          key={c.date}
          title={`${formatBusinessDate(c.date, locale)}: ${COVERAGE_STYLE[c.state].label}`}
          className={`block h-3.5 w-2 rounded-[2px] ${COVERAGE_STYLE[c.state].className}`}
        />
      ))}
    </span>
  );
}
