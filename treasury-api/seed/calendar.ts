/**
 * UTC calendar helpers for the demo ledger: dates are
 * `YYYY-MM-DD` strings, weekdays and the fixed-date public holidays of each
 * Nordic country (Easter-based holidays are left out: a demo needs fewer
 * bookings on holidays, not a complete almanac).
 */
import type { NordicCountry } from "./identifiers";

const DAY_MS = 86_400_000;

/** The current UTC date. */
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Milliseconds since the epoch at 00:00 UTC of `date`. */
export function dateMs(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
}

/** `date` plus `days` (negative to go back). */
export function addDays(date: string, days: number): string {
  return new Date(dateMs(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** `date` minus `months` calendar months (day of month clamped by JavaScript's rollover rules). */
export function subMonthsUtc(date: string, months: number): string {
  const d = new Date(dateMs(date));
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, d.getUTCDate())).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: string): number {
  return new Date(dateMs(date)).getUTCDay();
}

/** The dates from `from` to `to`, both inclusive. */
export function dateRange(from: string, to: string): string[] {
  const out: string[] = [];
  for (let ms = dateMs(from), end = dateMs(to); ms <= end; ms += DAY_MS)
    out.push(new Date(ms).toISOString().slice(0, 10));
  return out;
}

/** Number of days in the month of `date`. */
export function daysInMonth(date: string): number {
  return new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)), 0)).getUTCDate();
}

const HOLIDAYS: Record<NordicCountry, readonly string[]> = {
  NO: ["01-01", "05-01", "05-17", "12-24", "12-25", "12-26", "12-31"],
  SE: ["01-01", "01-06", "05-01", "06-06", "12-24", "12-25", "12-26", "12-31"],
  DK: ["01-01", "06-05", "12-24", "12-25", "12-26", "12-31"],
  FI: ["01-01", "01-06", "05-01", "12-06", "12-24", "12-25", "12-26"],
};

/** True on Saturdays, Sundays and the country's fixed-date holidays. */
export function isNonBankingDay(country: NordicCountry, date: string): boolean {
  const wd = weekday(date);
  return wd === 0 || wd === 6 || HOLIDAYS[country].includes(date.slice(5));
}

/** `date`, or the closest banking day before it. */
export function bankingDayOnOrBefore(country: NordicCountry, date: string): string {
  let d = date;
  while (isNonBankingDay(country, d)) d = addDays(d, -1);
  return d;
}

/** `date`, or the closest banking day after it. */
export function bankingDayOnOrAfter(country: NordicCountry, date: string): string {
  let d = date;
  while (isNonBankingDay(country, d)) d = addDays(d, 1);
  return d;
}

/** The date `YYYY-MM-DD` of day `day` in the month of `date`. */
export function dayOfMonth(date: string, day: number): string {
  return `${date.slice(0, 8)}${String(day).padStart(2, "0")}`;
}
