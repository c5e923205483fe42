/**
 * Day numbers for the forecast's inner loops: days since 1970-01-01 (UTC) instead of `YYYY-MM-DD` strings,
 * so series are plain arrays indexed by day (docs/forecast.md#buckets).
 */

const MS_PER_DAY = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Parsed dates (a history repeats the same few hundred dates); cleared when it grows past 100,000. */
const cache = new Map<string, number>();

/** `YYYY-MM-DD` → days since 1970-01-01. @throws on a string that is not a real calendar date. */
export function toDay(iso: string): number {
  const hit = cache.get(iso);
  if (hit !== undefined) return hit;
  if (!DATE.test(iso)) throw new Error(`not a YYYY-MM-DD date: ${iso}`);
  const ms = Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10)));
  const day = ms / MS_PER_DAY;
  if (fromDay(day) !== iso) throw new Error(`not a calendar date: ${iso}`);
  if (cache.size >= 100_000) cache.clear();
  cache.set(iso, day);
  return day;
}

const names = new Map<number, string>();

/** Days since 1970-01-01 → `YYYY-MM-DD`. */
export function fromDay(day: number): string {
  let s = names.get(day);
  if (s === undefined) {
    s = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    if (names.size >= 100_000) names.clear();
    names.set(day, s);
  }
  return s;
}

/** Weekday of a day number: 0 = Monday … 6 = Sunday. */
export function weekday(day: number): number {
  // 1970-01-01 was a Thursday (3).
  return (((day + 3) % 7) + 7) % 7;
}

/** Year, month (1–12) and day of month of a day number. */
export function ymd(day: number): { y: number; m: number; d: number } {
  const dt = new Date(day * MS_PER_DAY);
  return { y: dt.getUTCFullYear(), m: dt.getUTCMonth() + 1, d: dt.getUTCDate() };
}

/** Days in month `m` (1–12) of year `y`. */
export function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The day number of `y`-`m`-`d`, with `m` allowed past 12 or below 1 and `d` clamped to the month's last day. */
export function dayOf(y: number, m: number, d: number): number {
  const yy = y + Math.floor((m - 1) / 12);
  const mm = ((((m - 1) % 12) + 12) % 12) + 1;
  return Date.UTC(yy, mm - 1, Math.min(d, daysInMonth(yy, mm))) / MS_PER_DAY;
}

/** `day` plus `months` calendar months, the day of month clamped (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(day: number, months: number): number {
  const { y, m, d } = ymd(day);
  return dayOf(y, m + months, d);
}

/** Saturday or Sunday. */
export function isWeekend(day: number): boolean {
  return weekday(day) >= 5;
}
