/**
 * Business dates and timestamps for display (spec §1: dates `YYYY-MM-DD`,
 * timestamps ISO 8601). Dates stay strings; only display formats them.
 */
import { format, parseISO } from "date-fns";

/** `2026-01-10` → `10 Jan 2026`. */
export function formatDate(date: string): string {
  return format(parseISO(date), "d MMM yyyy");
}

/** ISO timestamp → `10 Jan 2026, 08:15` in the viewer's time zone. */
export function formatDateTime(ts: string): string {
  return format(parseISO(ts), "d MMM yyyy, HH:mm");
}

/** Today's date in UTC as `YYYY-MM-DD`. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` plus `days` (may be negative), in UTC. */
export function addDaysIso(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
