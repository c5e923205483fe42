/**
 * Date arithmetic on `YYYY-MM-DD` strings inside the range the API accepts
 * (`MIN_DATE` … `MAX_DATE`, see @treasury/contract/common `IsoDate`). Every next
 * day, previous day and default range goes through here, so that a date at
 * either end of the range never turns into year 0000 or a five-digit year
 * that PostgreSQL or a `YYYY-MM-DD` pattern would refuse.
 */
import { addDays, differenceInCalendarDays, parseISO } from "date-fns";
import { MAX_DATE, MIN_DATE } from "@treasury/contract/common";

/** `YYYY-MM-DD` of a calendar date; `shiftDate` clamps years outside 1–9999, `nextDay` / `previousDay` do not. */
function format(d: Date): string {
  const y = String(d.getFullYear()).padStart(4, "0");
  return `${y}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/**
 * `date` plus `days` (may be negative), clamped to `MIN_DATE` … `MAX_DATE`:
 * a default range that would start before year 1 starts on 0001-01-01, one
 * that would end after 9999 ends on 9999-12-31.
 */
export function shiftDate(date: string, days: number): string {
  const shifted = addDays(parseISO(date), days);
  if (shifted.getFullYear() < 1) return MIN_DATE;
  if (shifted.getFullYear() > 9999) return MAX_DATE;
  return format(shifted);
}

/**
 * The calendar day after `date`. Not clamped: the day after 9999-12-31 is
 * `10000-01-01`, so a loop `for (d = from; d <= to; d = nextDay(d))` always ends
 * and an exclusive upper bound stays after its last day.
 */
export function nextDay(date: string): string {
  return format(addDays(parseISO(date), 1));
}

/** The calendar day before `date` (not clamped, like `nextDay`). */
export function previousDay(date: string): string {
  return format(addDays(parseISO(date), -1));
}

/** Whole days from `a` to `b` (`b − a`). */
export function daysBetween(a: string, b: string): number {
  return differenceInCalendarDays(parseISO(b), parseISO(a));
}

/**
 * The first instant after the UTC day `date`, as an ISO 8601 timestamp that
 * PostgreSQL reads (`2026-01-11T00:00:00Z`; after 9999-12-31 it is
 * `10000-01-01T00:00:00Z`). Used as the exclusive upper bound of a
 * timestamp filter whose `to_date` is inclusive.
 */
export function startOfNextDayUtc(date: string): string {
  if (date >= MAX_DATE) return "10000-01-01T00:00:00Z";
  return `${shiftDate(date, 1)}T00:00:00Z`;
}
