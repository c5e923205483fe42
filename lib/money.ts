/**
 * Money display with `Intl.NumberFormat`: it formats decimal strings
 * exactly, so no float ever touches an amount.
 *
 * This module is on the first load of every page that shows an amount, so
 * it imports neither zod nor decimal.js: sign and scale are read from the
 * decimal string itself, minor units from the zod-free contract rules.
 * Arithmetic on amounts (sums, differences) is decimal.js in
 * `lib/totals.ts`, loaded only where a view adds amounts up.
 */
import { currencyMinorUnits } from "@treasury/contract/amounts";

/** A plain decimal string: optional sign, digits, optional fraction (the API's `DecimalString`, docs/treasury-api.md#conventions). */
const PLAIN_DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;

interface DecimalParts {
  negative: boolean;
  /** Integer digits without leading zeros ("0" when none are left). */
  integer: string;
  /** Fraction digits as written ("" when none). */
  fraction: string;
}

/** @throws TypeError when `amount` is not a plain decimal string such as "-1250.50". */
function parts(amount: string): DecimalParts {
  const m = PLAIN_DECIMAL.exec(amount);
  if (!m) throw new TypeError(`not a decimal string: ${JSON.stringify(amount)}`);
  return { negative: m[1] === "-", integer: (m[2] ?? "0").replace(/^0+(?=\d)/, ""), fraction: m[3] ?? "" };
}

function isZeroParts(p: DecimalParts): boolean {
  return !/[1-9]/.test(p.integer + p.fraction);
}

const formatters = new Map<string, Intl.NumberFormat>();

/** Minor-unit digits of the currency (NOK 2, JPY 0, KWD 3); 2 for a code Intl refuses. */
function minorUnits(currency: string): number {
  try {
    return currencyMinorUnits(currency);
  } catch {
    return 2;
  }
}

function formatter(currency: string, locale: string, sign: "auto" | "exceptZero"): Intl.NumberFormat {
  const key = `${locale}|${currency}|${sign}`;
  let f = formatters.get(key);
  if (!f) {
    const digits = minorUnits(currency);
    f = new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      currencyDisplay: "code",
      minimumFractionDigits: digits,
      maximumFractionDigits: Math.max(digits, 6),
      signDisplay: sign,
    });
    formatters.set(key, f);
  }
  return f;
}

/**
 * Formats a decimal string with its currency, e.g. `("-1250.5", "NOK")` →
 * `"-NOK 1,250.50"`. Intl formats the string exactly (no float conversion).
 * @param amount decimal string such as "1250.50"
 */
export function formatMoney(
  amount: string,
  currency: string,
  opts: { locale?: string; signed?: boolean } = {},
): string {
  // Intl.NumberFormat accepts decimal strings (ES2023 NumberFormat v3) and keeps every digit.
  return formatter(currency, opts.locale ?? "en-GB", opts.signed ? "exceptZero" : "auto").format(
    amount as unknown as number,
  );
}

/** Digits after the decimal point as written ("100.10" → 2); a decimal's own scale, which arithmetic would drop. */
export function scaleOf(amount: string): number {
  return (amount.split(".")[1] ?? "").length;
}

/**
 * A transaction's signed amount: debits negative (docs/treasury-api.md#conventions: `amount` is
 * absolute, `direction` gives the sign). The scale is kept as written,
 * leading zeros are dropped and a zero is never negative
 * (`("0.00", "debit")` → `"0.00"`), as decimal.js would write it.
 * @throws TypeError when `amount` is not a plain decimal string
 */
export function signedAmount(amount: string, direction: "credit" | "debit"): string {
  const p = parts(amount);
  const abs = p.fraction ? `${p.integer}.${p.fraction}` : p.integer;
  return direction === "debit" && !isZeroParts(p) ? `-${abs}` : abs;
}

/**
 * True when the decimal string is below zero ("-0.00" is not).
 * @throws TypeError when `amount` is not a plain decimal string
 */
export function isNegative(amount: string): boolean {
  const p = parts(amount);
  return p.negative && !isZeroParts(p);
}
