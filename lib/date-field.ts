import { format, isValid, parse } from "date-fns";
import { da, de, enGB, enUS, fi, fr, nb, nl, sv, type Locale } from "date-fns/locale";

/**
 * Typed date entry in the viewer's locale. A calendar date travels as `YYYY-MM-DD` (URLs, APIs, forms); a person
 * reads and types it in the order and separator of their locale: en-GB `23/11/2026`, en-US `11/23/2026`,
 * nb-NO `23.11.2026`. The locale's pattern comes from `Intl.DateTimeFormat`, so any BCP 47 tag works; ISO
 * `YYYY-MM-DD` is accepted as typed input in every locale too.
 */

const LOCALES: Record<string, Locale> = { da, de, "en-GB": enGB, "en-US": enUS, fi, fr, nb, nl, sv };

/** The date-fns locale for a BCP 47 tag (calendar month names, first day of week); en-GB when none fits. */
export function dateFnsLocale(tag: string): Locale {
  const exact = LOCALES[tag];
  if (exact) return exact;
  const lang = tag.split("-")[0]?.toLowerCase() ?? "";
  if (lang === "no" || lang === "nn") return nb;
  if (lang === "en") return /-(US|PH|CA)$/i.test(tag) ? enUS : enGB;
  return LOCALES[lang] ?? enGB;
}

/** One locale's numeric date layout: field order, separator and the zero-padded display pattern. */
export type DateLayout = {
  /** The order of the three fields, e.g. `["day", "month", "year"]`. */
  order: ("day" | "month" | "year")[];
  /** The separator between fields, e.g. `/` or `.`. */
  separator: string;
  /** A date-fns pattern that shows a date, e.g. `dd/MM/yyyy`. */
  pattern: string;
  /** The pattern as a person reads it in a hint, e.g. `dd/mm/yyyy`. */
  hint: string;
};

const TOKENS = { day: "dd", month: "MM", year: "yyyy" } as const;

/** The numeric date layout of a locale (`Intl.DateTimeFormat` with 2-digit day and month, 4-digit year). */
export function dateLayout(locale: string): DateLayout {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat(locale, { day: "2-digit", month: "2-digit", year: "numeric" }).formatToParts(
      new Date(Date.UTC(2026, 10, 23)),
    );
  } catch {
    parts = new Intl.DateTimeFormat("en-GB", { day: "2-digit", month: "2-digit", year: "numeric" }).formatToParts(
      new Date(Date.UTC(2026, 10, 23)),
    );
  }
  const order = parts
    .map((p) => p.type)
    .filter((t): t is "day" | "month" | "year" => t === "day" || t === "month" || t === "year");
  // The first literal between fields (nb-NO writes "23.11.2026"; a trailing dot some locales add is dropped).
  const separator = (parts.find((p) => p.type === "literal")?.value ?? "/").trim() || "/";
  const pattern = order.map((t) => TOKENS[t]).join(separator);
  return { order, separator, pattern, hint: pattern.toLowerCase() };
}

/** A `YYYY-MM-DD` date shown in the locale's numeric layout (`2026-11-23` → `23/11/2026` in en-GB); "" for "". */
export function formatDateField(iso: string, locale: string): string {
  if (!iso) return "";
  const d = parse(iso, "yyyy-MM-dd", new Date(2000, 0, 1));
  return isValid(d) ? format(d, dateLayout(locale).pattern) : iso;
}

/** The outcome of reading typed text: a `YYYY-MM-DD` date, null for an empty field, or an error naming the field. */
export type DateFieldResult = { ok: true; value: string | null } | { ok: false; error: string };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Reads a date typed in the locale's layout (1- or 2-digit day and month, 4-digit year; any of `/ . -` and space
 * as separator) or as ISO `YYYY-MM-DD`. Empty text is `null`. An impossible date (31/02/2026), a 2-digit year or
 * stray text is an error that names `field` and shows the expected layout, e.g.
 * `From: enter a date as dd/mm/yyyy`.
 */
export function parseDateField(text: string, locale: string, field: string): DateFieldResult {
  const t = text.trim();
  if (t === "") return { ok: true, value: null };
  const error = { ok: false as const, error: `${field}: enter a date as ${dateLayout(locale).hint}` };
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  let y: string, m: string, d: string;
  if (iso) {
    [, y, m, d] = iso as unknown as [string, string, string, string];
  } else {
    const { order, separator } = dateLayout(locale);
    const sep = `[${escape(separator)}/.\\- ]`;
    const re = new RegExp(`^${order.map((f) => (f === "year" ? "(\\d{4})" : "(\\d{1,2})")).join(sep)}\\.?$`);
    const hit = re.exec(t);
    if (!hit) return error;
    const byField = Object.fromEntries(order.map((f, i) => [f, hit[i + 1] ?? ""]));
    y = byField.year ?? "";
    m = byField.month ?? "";
    d = byField.day ?? "";
  }
  const value = `${y}-${m.padStart(2, "0")}-${d.padStart(2, "0")}`;
  const date = parse(value, "yyyy-MM-dd", new Date(2000, 0, 1));
  // parse() rolls nothing over, but a check against the formatted value catches 31/02 and month 13 explicitly.
  if (!isValid(date) || format(date, "yyyy-MM-dd") !== value) return error;
  return { ok: true, value };
}

/**
 * Whether `value` lies within `[min, max]` (both optional, all `YYYY-MM-DD`; string order is date order). The
 * error names the field and shows the bound in the locale's layout.
 */
export function checkDateBounds(
  value: string,
  locale: string,
  field: string,
  min?: string,
  max?: string,
): string | null {
  if (min && value < min) return `${field}: the earliest date is ${formatDateField(min, locale)}`;
  if (max && value > max) return `${field}: the latest date is ${formatDateField(max, locale)}`;
  return null;
}
