/**
 * Rules for amounts and currencies that need no zod (docs/treasury-api.md#conventions: amounts
 * are decimal strings, currencies ISO 4217). `./common` builds the
 * `DecimalString` / `PositiveDecimalString` schemas from these patterns and
 * re-exports `currencyMinorUnits`; browser code that only checks or
 * formats an amount (the new-batch running total, `lib/money`) imports them
 * from here so that its page does not ship zod.
 */

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

/**
 * Number of minor-unit digits of an ISO 4217 currency (NOK 2, JPY 0, KWD 3).
 * @throws RangeError for an unknown code.
 */
export function currencyMinorUnits(code: string): number {
  const digits = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions()
    .maximumFractionDigits;
  return digits ?? 2;
}
