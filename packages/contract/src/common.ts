/**
 * Shared primitives of the Treasury Public API contract (docs/treasury-api.md#conventions, §2).
 *
 * Every schema here is plain zod 4 so that the treasury-api, the treasury
 * client, the BFF and the browser forms import the same definitions.
 * Money is always a decimal string, dates are `YYYY-MM-DD`, timestamps are
 * ISO 8601 with an offset.
 */
import { z } from "zod";
import { isValid, parseISO } from "date-fns";
import { DECIMAL_STRING_PATTERN, POSITIVE_DECIMAL_STRING_PATTERN, hasNonZeroDigit, isIso4217 } from "./amounts";

export { currencyMinorUnits } from "./amounts";

/** A UUID string (docs/treasury-api.md#conventions: path parameter `id` is always a UUID). */
export const Uuid = z.uuid({ message: "must be a UUID" });

/**
 * Earliest date the API accepts and answers for (year 0000 does not exist in the Gregorian calendar PostgreSQL uses).
 */
export const MIN_DATE = "0001-01-01";
/** Latest date the API accepts: four-digit years only (docs/treasury-api.md#conventions, `YYYY-MM-DD`). */
export const MAX_DATE = "9999-12-31";

/** A calendar date `YYYY-MM-DD` that exists, from `MIN_DATE` to `MAX_DATE` (docs/treasury-api.md#conventions). */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "must be a date in the form YYYY-MM-DD" })
  .refine((s) => isValid(parseISO(s)), { message: "must be a real calendar date" })
  .refine((s) => s >= MIN_DATE, { message: `must be a date from ${MIN_DATE} to ${MAX_DATE}` })
  .meta({ format: "date", example: "2026-01-10" });

/** An ISO 8601 timestamp with offset, e.g. `2026-01-10T08:15:00.000Z`. */
export const IsoDateTime = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time with offset" });

export { isIso4217 };

/** A three-letter ISO 4217 currency code (docs/treasury-api.md#conventions). */
export const CurrencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, { message: "must be a three-letter ISO 4217 code in upper case" })
  .refine(isIso4217, { message: "is not an ISO 4217 currency code" })
  .meta({ example: "NOK" });

/** A decimal amount as a string: optional minus, digits, optional fraction. Never a float. */
export const DecimalString = z
  .string()
  .regex(DECIMAL_STRING_PATTERN, { message: "must be a decimal string such as 1250.00" })
  .meta({ example: "1250.00" });

/** A positive decimal amount string (> 0). */
export const PositiveDecimalString = z
  .string()
  .regex(POSITIVE_DECIMAL_STRING_PATTERN, { message: "must be a positive decimal string such as 1250.00" })
  .refine(hasNonZeroDigit, { message: "must be greater than zero" })
  .meta({ example: "1250.00" });

/** Two-letter ISO 3166-1 alpha-2 country code. */
export const CountryCode = z.string().regex(/^[A-Z]{2}$/, { message: "must be a two-letter ISO 3166-1 country code" });

/**
 * Characters no text field takes: the C0 controls U+0000–U+001F and DEL.
 * PostgreSQL `text` cannot store U+0000 at all, and the other controls have no
 * place in a name, an identifier or a URL (nor in an ISO 20022 message).
 */
// eslint-disable-next-line no-control-regex -- naming the control characters is the point of this pattern
const NO_CONTROL_CHARS = /^[^\u0000-\u001f\u007f]*$/;
/** Free text (reasons, comments) may hold tab, line feed and carriage return; no other control character. */
// eslint-disable-next-line no-control-regex -- as above
const NO_CONTROL_CHARS_BUT_WHITESPACE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

/** True when `s` holds a C0 control character or DEL (what `plainString` and `text` refuse). */
export function hasControlCharacters(s: string): boolean {
  return !NO_CONTROL_CHARS.test(s);
}

/**
 * A string without control characters: the building block of every
 * single-line text field of a request body or query (names, identifiers, URLs,
 * credentials). 400 "must not contain control characters" otherwise.
 */
export function plainString() {
  return z.string().regex(NO_CONTROL_CHARS, { message: "must not contain control characters" });
}

/** A bounded, trimmed, non-empty single-line text field (no control characters). */
export function text(max: number, min = 1) {
  return z
    .string()
    .trim()
    .min(min, { message: min === 1 ? "is required" : `must be at least ${min} characters` })
    .max(max, { message: `must be at most ${max} characters` })
    .regex(NO_CONTROL_CHARS, { message: "must not contain control characters" });
}

/**
 * A bounded, trimmed free-text field (a reason, a comment): tab and line
 * breaks are allowed, other control characters are not. `min` 0 allows "".
 */
export function freeText(max: number, min = 1) {
  return z
    .string()
    .trim()
    .min(min, { message: min === 1 ? "is required" : `must be at least ${min} characters` })
    .max(max, { message: `must be at most ${max} characters` })
    .regex(NO_CONTROL_CHARS_BUT_WHITESPACE, {
      message: "must not contain control characters other than tab and line breaks",
    });
}

/** The version identifier of the interface description (docs/treasury-api.md#versioning). */
export const API_VERSION = "2026-01-10";
