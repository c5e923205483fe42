/**
 * Business-date arithmetic on `YYYY-MM-DD` strings (docs/treasury-api.md#conventions: dates are
 * `YYYY-MM-DD`). Dates stay strings; display formatting is in lib/format-date.
 */

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
