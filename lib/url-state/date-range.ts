/**
 * Date range in the URL: a preset — this month, last 30
 * days, last 90 days, year to date — or a custom `from` / `to`. Keys:
 * `range`, `from`, `to`. Resolution to `from_date` / `to_date` is pure and
 * works on `YYYY-MM-DD` strings with UTC day arithmetic, so the business
 * dates sent to the API are never shifted by the viewer's time zone.
 */
import { createLoader, parseAsStringLiteral } from "nuqs/server";
import { addDaysIso } from "../dates";
import { isIsoDate, parseAsBusinessDate } from "./parsers";

export const DATE_PRESETS = ["month", "30d", "90d", "ytd", "custom"] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

/** Labels for the preset picker. */
export const DATE_PRESET_LABELS: Record<DatePreset, string> = {
  month: "This month",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  ytd: "Year to date",
  custom: "Custom",
};

/** nuqs parsers of the date range (shared by server loaders and `useQueryStates`). */
export const dateRangeParsers = {
  range: parseAsStringLiteral(DATE_PRESETS),
  from: parseAsBusinessDate,
  to: parseAsBusinessDate,
};

/** Server-side loader of the date range from a page's `searchParams`. */
export const loadDateRange = createLoader(dateRangeParsers);

/** The range as the API wants it (inclusive dates), with the preset that produced it. */
export interface ResolvedRange {
  preset: DatePreset;
  from_date: string;
  to_date: string;
}

/**
 * Resolves URL state to inclusive dates.
 * - `month`: first of today's month to today; `30d` / `90d`: the last 30 / 90
 *   days including today; `ytd`: 1 January to today.
 * - `custom` uses `from` / `to`; a missing end is filled from today or `from`,
 *   a reversed pair is swapped. Custom without any date falls back to `fallback`.
 * - no `range` but a `from` or `to`: custom; nothing at all: `fallback`.
 * @param today `YYYY-MM-DD` (the caller decides whose "today")
 * @throws RangeError when `today` is not a date
 */
export function resolveDateRange(
  state: { range?: DatePreset | null; from?: string | null; to?: string | null },
  today: string,
  fallback: Exclude<DatePreset, "custom"> = "30d",
): ResolvedRange {
  if (!isIsoDate(today)) throw new RangeError("today must be YYYY-MM-DD");
  const from = state.from && isIsoDate(state.from) ? state.from : null;
  const to = state.to && isIsoDate(state.to) ? state.to : null;
  const preset = state.range ?? (from || to ? "custom" : fallback);
  switch (preset) {
    case "month":
      return { preset, from_date: `${today.slice(0, 7)}-01`, to_date: today };
    case "30d":
      return { preset, from_date: addDaysIso(today, -29), to_date: today };
    case "90d":
      return { preset, from_date: addDaysIso(today, -89), to_date: today };
    case "ytd":
      return { preset, from_date: `${today.slice(0, 4)}-01-01`, to_date: today };
    case "custom": {
      if (!from && !to) return resolveDateRange({ range: fallback }, today, fallback);
      const a = from ?? (to && to < today ? to : today);
      const b = to ?? (from && from > today ? from : today);
      return a <= b ? { preset, from_date: a, to_date: b } : { preset, from_date: b, to_date: a };
    }
  }
}

/** Number of days in an inclusive range (for "showing N days"). */
export function daysInRange(r: { from_date: string; to_date: string }): number {
  return Math.round((Date.parse(`${r.to_date}T00:00:00Z`) - Date.parse(`${r.from_date}T00:00:00Z`)) / 86_400_000) + 1;
}
