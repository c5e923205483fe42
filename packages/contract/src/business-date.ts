/**
 * Business dates of a company: a date (`YYYY-MM-DD`) means that day where the
 * company is, not in UTC. A Danish company's "today" starts at 23:00 or 22:00
 * UTC the evening before. Shared by the dashboard (execution dates not before
 * the company's today) and the local API's simulated bank (a batch is executed
 * once its requested execution date has begun in the company's time zone), and
 * the rule that an execution date is not before the company's today, which
 * the dashboard's BFF and the local API both apply.
 */

/** Time zones of the demo companies' countries; a country not listed uses UTC. */
export const COUNTRY_ZONES: Readonly<Record<string, string>> = {
  NO: "Europe/Oslo",
  SE: "Europe/Stockholm",
  DK: "Europe/Copenhagen",
  FI: "Europe/Helsinki",
  DE: "Europe/Berlin",
  NL: "Europe/Amsterdam",
  GB: "Europe/London",
};

/** The IANA zone of `country` (ISO 3166 alpha-2, any case), or undefined (then UTC applies). */
export function countryZone(country: string | null | undefined): string | undefined {
  return country ? COUNTRY_ZONES[country.toUpperCase()] : undefined;
}

/** The wall-clock date and time of the instant `at` in `zone`, read as if it were UTC (epoch ms). */
function wallClockMs(at: Date, zone: string): number {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const v = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(v("year"), v("month") - 1, v("day"), v("hour"), v("minute"), v("second"));
}

/**
 * The instant at which `date` (`YYYY-MM-DD`) begins for a company in `country`: its local midnight (UTC midnight
 * for a country without a known zone). Daylight-saving changes are respected (the offset is taken at that midnight).
 */
export function startOfBusinessDate(country: string | null | undefined, date: string): Date {
  const utcMidnight = new Date(`${date}T00:00:00Z`);
  const zone = countryZone(country);
  if (!zone) return utcMidnight;
  // Local midnight = UTC midnight minus the zone's offset; the offset is read twice so that a change of offset
  // between the two instants (a daylight-saving switch that day) is taken at local midnight itself.
  const first = utcMidnight.getTime() - (wallClockMs(utcMidnight, zone) - utcMidnight.getTime());
  const offset = wallClockMs(new Date(first), zone) - first;
  return new Date(utcMidnight.getTime() - offset);
}

/** Today's date (`YYYY-MM-DD`) where a company in `country` is; UTC for a country without a known zone. */
export function businessToday(country: string | null | undefined, now = new Date()): string {
  const zone = countryZone(country) ?? "UTC";
  return new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    now,
  );
}

/**
 * Why `date` (`YYYY-MM-DD`) cannot be a requested execution date for a company in `country`: it is before today in
 * the company's time zone (UTC for a country without a known zone) at the instant `now`. Null when it can, or when no
 * date is given. Example: at 23:30 UTC on 2026-11-23 a Norwegian company's today is 2026-11-24, so 2026-11-23 is
 * refused and 2026-11-24 accepted.
 */
export function executionDateProblem(
  date: string | null | undefined,
  country: string | null | undefined,
  now: Date = new Date(),
): string | null {
  if (!date) return null;
  return pastDateProblem(date, businessToday(country, now));
}

/** Why `date` is before `today` (both `YYYY-MM-DD`, the company's today), or null. */
export function pastDateProblem(date: string, today: string): string | null {
  return date < today ? `must not be in the past (today is ${today} where the company is)` : null;
}
