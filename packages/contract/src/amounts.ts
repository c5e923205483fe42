/**
 * Rules for amounts and currencies that need no zod (docs/treasury-api.md#conventions: amounts
 * are decimal strings, currencies ISO 4217). `./common` builds the
 * `DecimalString` / `PositiveDecimalString` schemas from these patterns and
 * re-exports `currencyMinorUnits`; browser code that only checks or
 * formats an amount (the new-batch running total, `lib/money`) imports them
 * from here so that its page does not ship zod.
 */

/** The ISO 4217 codes this runtime knows (Intl's list is ISO 4217's active list). */
const ISO_4217 = new Set(Intl.supportedValuesOf("currency"));

/** True when `code` is an active ISO 4217 currency code (upper case, e.g. "NOK"). */
export function isIso4217(code: string): boolean {
  return ISO_4217.has(code);
}

/** A decimal amount string: optional minus, 1–18 integer digits, up to 6 fraction digits. */
export const DECIMAL_STRING_PATTERN = /^-?\d{1,18}(\.\d{1,6})?$/;

/** A non-negative decimal amount string; `isPositiveDecimalString` adds "greater than zero". */
export const POSITIVE_DECIMAL_STRING_PATTERN = /^\d{1,18}(\.\d{1,6})?$/;

/** True when some digit is not zero ("0.00" → false), i.e. a matching amount is above zero. */
export function hasNonZeroDigit(amount: string): boolean {
  return /[1-9]/.test(amount);
}

/** True for what `PositiveDecimalString` accepts: a decimal string above zero, e.g. "1250.00". */
export function isPositiveDecimalString(amount: string): boolean {
  return POSITIVE_DECIMAL_STRING_PATTERN.test(amount) && hasNonZeroDigit(amount);
}

/** Minor units per well-formed code already asked for (at most 26³ entries: three letters). */
const minorUnitsCache = new Map<string, number>();

/**
 * Number of minor-unit digits of an ISO 4217 currency (NOK 2, JPY 0, KWD 3).
 * Remembered per code: building an `Intl.NumberFormat` costs about 15 µs, and
 * a report formats several amounts per row (the forecast's breakdown five).
 * @throws RangeError for an unknown code.
 */
export function currencyMinorUnits(code: string): number {
  const known = minorUnitsCache.get(code);
  if (known !== undefined) return known;
  const digits =
    new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  if (/^[A-Z]{3}$/.test(code)) minorUnitsCache.set(code, digits);
  return digits;
}
