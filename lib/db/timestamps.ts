/**
 * PostgreSQL `timestamptz` text to ISO 8601 with offset. PostgreSQL (and PGlite) print
 * `2026-11-23 06:16:37.601234+00`, `… +05:30` or `…-04`; this returns `2026-11-23T06:16:37.601234+00:00`,
 * keeping every fraction digit. A `Date` (some drivers parse the value themselves) becomes `toISOString()`;
 * anything else (`infinity`, an unexpected form) is returned unchanged rather than guessed at.
 */
export function isoTimestamp(value: string | Date): string {
  if (value instanceof Date) return value.toISOString();
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(?:([+-]\d{2})(?::?(\d{2}))?(?::?\d{2})?|(Z))$/.exec(
    value,
  );
  if (!m) return value;
  const [, date, time, hours, minutes, zulu] = m;
  return `${date}T${time}${zulu ? "+00:00" : `${hours}:${minutes ?? "00"}`}`;
}
