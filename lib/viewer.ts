/**
 * The viewer's locale and time zone as the server can know them before any script runs: the locale from the
 * request's `Accept-Language` (first acceptable tag), the zone from the `tz` cookie the browser sets on its first
 * page view (`components/format/viewer.tsx`). Server-rendered text then matches what the browser renders, so dates
 * and times do not change after hydration; without the cookie (first visit) the server renders UTC, labelled.
 *
 * Pure functions: no request access here (the root layout passes the header and cookie values in).
 */

/** Locale used when the request names none the runtime supports. */
export const DEFAULT_LOCALE = "en-GB";
/** Zone used on the server when the browser has not told its zone yet. */
export const DEFAULT_TIME_ZONE = "UTC";
/** Cookie carrying the browser's IANA time zone (e.g. `Europe/Oslo`); not a secret, readable by scripts. */
export const TIME_ZONE_COOKIE = "tz";

/** An IANA zone name the runtime knows (`Europe/Oslo`, `UTC`), else null. Never throws. */
export function validTimeZone(value: string | undefined | null): string | null {
  if (!value || value.length > 64) return null;
  try {
    return new Intl.DateTimeFormat("en", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/**
 * The first locale of an `Accept-Language` header (`nb-NO,nb;q=0.9,en;q=0.8` → `nb-NO`) that the runtime's date
 * formatting supports, in canonical form; `DEFAULT_LOCALE` when none. Quality values are honoured (highest first,
 * header order among equals); `*` is ignored. Never throws.
 */
export function localeFromAcceptLanguage(header: string | undefined | null): string {
  if (!header) return DEFAULT_LOCALE;
  const tags = header
    .split(",")
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: (tag ?? "").trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((t) => t.tag && t.tag !== "*" && t.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of tags) {
    try {
      const [canonical] = Intl.getCanonicalLocales(tag);
      if (canonical && Intl.DateTimeFormat.supportedLocalesOf(canonical).length > 0) return canonical;
    } catch {
      // not a BCP 47 tag: try the next one
    }
  }
  return DEFAULT_LOCALE;
}
