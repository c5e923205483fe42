/**
 * Amounts as people type them: "1.234,50" (German, Danish, Norwegian
 * banking), "1 234,50" (French, Swedish, Finnish), "1,234.50" (English),
 * "1'234.50" (Swiss). One parsing function for the payment form and the CSV
 * import; the stored value is always the plain decimal string the API takes
 * ("1234.50"), never a float. Pure; importable by the browser.
 *
 * Rules:
 * - spaces (also no-break and narrow no-break spaces) and apostrophes group
 *   thousands; a leading "+" or "-", letters and anything else are refused;
 * - with both "." and "," in the text, the last one is the decimal separator
 *   and the other groups thousands;
 * - one kind of separator used more than once groups thousands ("1.234.567");
 * - one separator used once with other than 3 digits after it is the decimal
 *   separator ("12,5", "1234.50");
 * - one separator once with exactly 3 digits after it ("1.234", "1,234") is
 *   ambiguous: `decimal` (the CSV file's convention) or else the locale's
 *   decimal separator decides, and the result says it was assumed;
 * - thousands groups must have 3 digits ("1.23.456" is refused).
 */

/** The decimal separator of a text. */
export type DecimalMark = "," | ".";

export type ParsedAmount =
  | {
      ok: true;
      /** Plain decimal string, e.g. "1234.50". */
      value: string;
      /** The decimal separator the text was read with (null when it has none). */
      decimal: DecimalMark | null;
      /** True when the text alone could not tell (e.g. "1.234") and the locale or the file decided. */
      assumed: boolean;
    }
  | { ok: false; reason: "empty" | "invalid" };

/** The decimal and group separators of `locale` ("de-DE" → ",", "."; "en-GB" → ".", ","). */
export function localeSeparators(locale: string): { decimal: DecimalMark; group: string } {
  let parts: Intl.NumberFormatPart[] = [];
  try {
    parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  } catch {
    parts = new Intl.NumberFormat("en-GB").formatToParts(12345.6);
  }
  const decimal = parts.find((p) => p.type === "decimal")?.value === "," ? "," : ".";
  const group = parts.find((p) => p.type === "group")?.value ?? (decimal === "," ? "." : ",");
  return { decimal, group };
}

/** An amount written the locale's way, for hints and placeholders: "1 250,00", "1,250.00", "1.250,00". */
export function amountExample(locale: string, amount = "1250.00"): string {
  try {
    return new Intl.NumberFormat(locale, { minimumFractionDigits: 2 }).format(amount as unknown as number);
  } catch {
    return "1,250.00";
  }
}

const GROUPING = /[\s\u00a0\u202f']/g;

function validGroups(integer: string, sep: string): boolean {
  const groups = integer.split(sep);
  return (
    groups.every((g) => /^\d+$/.test(g)) &&
    (groups[0]?.length ?? 0) <= 3 &&
    groups.slice(1).every((g) => g.length === 3)
  );
}

function plain(integer: string, fraction: string | null): string {
  const i = integer.replace(/^0+(?=\d)/, "");
  return fraction === null ? i : `${i}.${fraction}`;
}

/**
 * Reads an amount typed in `locale` (or a CSV cell, with `decimal` the file's convention). Never returns a float.
 * @returns `{ ok: true, value: "1234.50", decimal, assumed }`, or `{ ok: false, reason: "empty" | "invalid" }`.
 * @example parseAmount("1.234,50", "en-GB") → { ok: true, value: "1234.50", decimal: ",", assumed: false }
 * @example parseAmount("1.234", "de-DE") → { ok: true, value: "1234", decimal: ",", assumed: true }
 */
export function parseAmount(text: string, locale: string, decimal?: DecimalMark): ParsedAmount {
  const raw = text.trim();
  if (!raw) return { ok: false, reason: "empty" };
  // Spaces and apostrophes only group thousands: "1 234,50", "1'234.50".
  const spaced = raw.split(/[\s\u00a0\u202f']+/);
  if (spaced.length > 1 && !spaced.slice(1).every((g) => /^\d{3}(?:[.,]\d*)?$/.test(g))) {
    return { ok: false, reason: "invalid" };
  }
  const s = raw.replace(GROUPING, "");
  if (!/^\d[\d.,]*$/.test(s) || /[.,]$/.test(s)) return { ok: false, reason: "invalid" };
  const dots = s.split(".").length - 1;
  const commas = s.split(",").length - 1;
  if (dots === 0 && commas === 0) return { ok: true, value: plain(s, null), decimal: null, assumed: false };
  if (dots > 0 && commas > 0) {
    const mark: DecimalMark = s.lastIndexOf(",") > s.lastIndexOf(".") ? "," : ".";
    const group = mark === "," ? "." : ",";
    const [integer = "", fraction = "", ...rest] = s.split(mark);
    if (rest.length || fraction.includes(group) || !validGroups(integer, group))
      return { ok: false, reason: "invalid" };
    return { ok: true, value: plain(integer.replaceAll(group, ""), fraction), decimal: mark, assumed: false };
  }
  const sep: DecimalMark = dots > 0 ? "." : ",";
  const count = Math.max(dots, commas);
  if (count > 1) {
    // "1.234.567": grouping only (a decimal separator appears once at most).
    if (!validGroups(s, sep)) return { ok: false, reason: "invalid" };
    return { ok: true, value: plain(s.replaceAll(sep, ""), null), decimal: sep === "," ? "." : ",", assumed: false };
  }
  const [integer = "", fraction = ""] = s.split(sep);
  if (fraction.length !== 3 || integer.length > 3 || integer === "0") {
    // "12,5", "1234.50", "0.125": only a decimal separator reads so.
    return { ok: true, value: plain(integer, fraction), decimal: sep, assumed: false };
  }
  // "1.234" / "1,234": a thousand-something or a one-point-something; the file or the locale decides.
  const mark = decimal ?? localeSeparators(locale).decimal;
  return mark === sep
    ? { ok: true, value: plain(integer, fraction), decimal: sep, assumed: true }
    : { ok: true, value: plain(integer + fraction, null), decimal: mark, assumed: true };
}

/**
 * The decimal separator a set of amount texts (a CSV file's column) uses: the one the unambiguous texts show
 * ("1.234,50", "12,5"), else the locale's. `from` says which; `conflict` is true when the texts show both.
 */
export function fileDecimalMark(
  texts: readonly string[],
  locale: string,
): { decimal: DecimalMark; from: "file" | "locale"; conflict: boolean } {
  const seen = new Set<DecimalMark>();
  for (const t of texts) {
    const p = parseAmount(t, locale);
    if (p.ok && !p.assumed && p.decimal) seen.add(p.decimal);
  }
  if (seen.size === 1) return { decimal: [...seen][0] ?? ".", from: "file", conflict: false };
  return { decimal: localeSeparators(locale).decimal, from: "locale", conflict: seen.size > 1 };
}
