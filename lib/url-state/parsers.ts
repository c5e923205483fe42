/**
 * Shared nuqs parsers for URL state: filters, pages and date ranges live in
 * the URL, so a view can be bookmarked, shared and reloaded as it was. Imported from `nuqs/server` so the same
 * parsers serve server pages (`createLoader`) and client hooks
 * (`useQueryStates`). Values that do not parse are treated as absent, so a
 * hand-edited URL never breaks a view.
 */
import { createParser, parseAsString } from "nuqs/server";

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * True for an existing calendar date `YYYY-MM-DD` (docs/treasury-api.md#conventions). Checked
 * on the digits in UTC, so no local time zone can shift the day.
 */
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

/** A business date kept as the string `YYYY-MM-DD` (never a `Date`, so never shifted by a time zone). */
export const parseAsBusinessDate = createParser({
  parse: (v: string) => (isIsoDate(v) ? v : null),
  serialize: (v: string) => v,
});

/** An ISO 4217-shaped currency code (upper-cased); anything else is absent. */
export const parseAsCurrency = createParser({
  parse: (v: string) => {
    const c = v.trim().toUpperCase();
    return /^[A-Z]{3}$/.test(c) ? c : null;
  },
  serialize: (v: string) => v,
});

/** A UUID (docs/treasury-api.md#conventions); anything else is absent. */
export const parseAsUuid = createParser({
  parse: (v: string) =>
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v) ? v.toLowerCase() : null,
  serialize: (v: string) => v,
});

/** Free text for a client-side search, trimmed and capped at 100 characters; empty is absent. */
export const parseAsSearchText = createParser({
  parse: (v: string) => {
    const t = v.trim().slice(0, 100);
    return t === "" ? null : t;
  },
  serialize: (v: string) => v,
});

/** A 1-indexed page number (docs/treasury-api.md#list-conventions `page`); anything else is absent. */
export const parseAsPage = createParser({
  parse: (v: string) => (/^[1-9]\d{0,6}$/.test(v) ? Number(v) : null),
  serialize: (v: number) => String(v),
});

export { parseAsString };
