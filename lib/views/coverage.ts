/**
 * Statement coverage per day, by the API's coverage `completeness`:
 * complete, partial, missing. The API lists the coverage
 * days it has; a day without a row has no statement at all and is shown as
 * missing, the same as a row marked `missing`. Days are `YYYY-MM-DD`
 * strings, walked with UTC arithmetic (no time-zone shift).
 */
import type { CoverageDay } from "@treasury/contract";
import { addDaysIso } from "../dates";

export type CoverageState = "complete" | "partial" | "missing";

/** One calendar day of coverage: its state and the statement source when there is one. */
export interface CoverageCell {
  date: string;
  state: CoverageState;
  source: string | null;
}

/** Every day from `from` to `to` inclusive, in order, with its coverage state. */
export function coverageWindow(
  days: readonly Pick<CoverageDay, "date" | "completeness" | "source">[],
  from: string,
  to: string,
): CoverageCell[] {
  const by = new Map(days.map((d) => [d.date, d]));
  const out: CoverageCell[] = [];
  for (let d = from; d <= to; d = addDaysIso(d, 1)) {
    const c = by.get(d);
    out.push({ date: d, state: c?.completeness ?? "missing", source: c?.source ?? null });
    if (out.length > 3660) break; // ten years: a guard against a reversed or absurd range
  }
  return out;
}

/** Counts per state, e.g. for "5 of 7 days complete". */
export function coverageSummary(cells: readonly CoverageCell[]): Record<CoverageState, number> {
  const s: Record<CoverageState, number> = { complete: 0, partial: 0, missing: 0 };
  for (const c of cells) s[c.state] += 1;
  return s;
}

/** The most recent day that is not complete, or null (the "since when is a statement missing" question). */
export function lastGap(cells: readonly CoverageCell[]): CoverageCell | null {
  for (let i = cells.length - 1; i >= 0; i--) {
    const c = cells[i];
    if (c && c.state !== "complete") return c;
  }
  return null;
}

/**
 * The first day of the current unbroken run of non-complete days ending at the last cell, or null when the last day is
 * complete.
 */
export function missingSince(cells: readonly CoverageCell[]): string | null {
  let since: string | null = null;
  for (let i = cells.length - 1; i >= 0; i--) {
    const c = cells[i];
    if (!c || c.state === "complete") break;
    since = c.date;
  }
  return since;
}
