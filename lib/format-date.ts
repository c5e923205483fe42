/**
 * Locale-aware display of business dates and timestamps (dates
 * shown in the user's locale, business dates never shifted by time zone).
 *
 * A business date `YYYY-MM-DD` is formatted as that calendar day in UTC —
 * the day is built with `Date.UTC` and formatted with `timeZone: "UTC"`, so
 * a viewer west of Greenwich still sees 10 January for "2026-01-10". A
 * timestamp is an instant and is shown in the viewer's own time zone.
 */

const cache = new Map<string, Intl.DateTimeFormat>();

function fmt(locale: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(opts)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, opts);
    cache.set(key, f);
  }
  return f;
}

const STYLES = {
  /** 10 Jan 2026 */
  medium: { day: "numeric", month: "short", year: "numeric" },
  /** 10 Jan */
  short: { day: "numeric", month: "short" },
  /** Sat, 10 Jan 2026 */
  long: { weekday: "short", day: "numeric", month: "short", year: "numeric" },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

/** Epoch milliseconds of a `YYYY-MM-DD` at 00:00 UTC (for chart geometry); NaN when malformed. */
export function businessDateToUtcMs(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return Number.NaN;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

/**
 * Formats a business date in `locale` without any time-zone shift.
 * Returns the input unchanged when it is not `YYYY-MM-DD`.
 */
export function formatBusinessDate(date: string, locale = "en-GB", style: keyof typeof STYLES = "medium"): string {
  const ms = businessDateToUtcMs(date);
  if (Number.isNaN(ms)) return date;
  return fmt(locale, { ...STYLES[style], timeZone: "UTC" }).format(ms);
}

/**
 * Formats an ISO 8601 instant in `timeZone` (an IANA zone; the runtime's own zone when omitted), with seconds when
 * asked and the zone's short name when `zoneName` (e.g. `23 Nov 2026, 07:16 CET`). Returns the input unchanged when it
 * is not a timestamp.
 */
export function formatTimestamp(
  ts: string,
  locale = "en-GB",
  opts: { timeZone?: string; seconds?: boolean; zoneName?: boolean } = {},
): string {
  const ms = Date.parse(ts);
  if (Number.isNaN(ms)) return ts;
  return fmt(locale, {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    ...(opts.seconds ? { second: "2-digit" } : {}),
    ...(opts.zoneName ? { timeZoneName: "short" } : {}),
    ...(opts.timeZone ? { timeZone: opts.timeZone } : {}),
  }).format(ms);
}

/** Time of day of an instant, e.g. `08:15` (viewer's time zone unless given). */
export function formatTimeOfDay(ts: number | string, locale = "en-GB", timeZone?: string): string {
  const ms = typeof ts === "number" ? ts : Date.parse(ts);
  return fmt(locale, { hour: "2-digit", minute: "2-digit", ...(timeZone ? { timeZone } : {}) }).format(ms);
}

/**
 * The calendar date part of an ISO timestamp as the bank wrote it (`2026-01-10T23:30:00+01:00` → `2026-01-10`), no
 * conversion.
 */
export function datePartOf(ts: string): string {
  return ts.slice(0, 10);
}
