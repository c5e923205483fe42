/**
 * Money display and arithmetic (DESIGN.md stack: decimal.js for arithmetic
 * on amount strings, Intl.NumberFormat for display — it formats decimal
 * strings exactly, so no float ever touches an amount).
 */
import Decimal from "decimal.js";
import { currencyMinorUnits } from "./contract/common";

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, locale: string, sign: "auto" | "exceptZero"): Intl.NumberFormat {
  const key = `${locale}|${currency}|${sign}`;
  let f = formatters.get(key);
  if (!f) {
    let digits = 2;
    try {
      digits = currencyMinorUnits(currency);
    } catch {
      digits = 2;
    }
    f = new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay: "code", minimumFractionDigits: digits, maximumFractionDigits: Math.max(digits, 6), signDisplay: sign });
    formatters.set(key, f);
  }
  return f;
}

/**
 * Formats a decimal string with its currency, e.g. `("-1250.5", "NOK")` →
 * `"-NOK 1,250.50"`. Intl formats the string exactly (no float conversion).
 * @param amount decimal string such as "1250.50"
 */
export function formatMoney(amount: string, currency: string, opts: { locale?: string; signed?: boolean } = {}): string {
  // Intl.NumberFormat accepts decimal strings (ES2023 NumberFormat v3) and keeps every digit.
  return formatter(currency, opts.locale ?? "en-GB", opts.signed ? "exceptZero" : "auto").format(amount as unknown as number);
}

/** Digits after the decimal point as written ("100.10" → 2); Decimal drops trailing zeros. */
export function scaleOf(amount: string): number {
  return (amount.split(".")[1] ?? "").length;
}

/** A transaction's signed amount: debits negative (spec: `amount` is absolute, `direction` gives the sign). */
export function signedAmount(amount: string, direction: "credit" | "debit"): string {
  const d = new Decimal(amount).abs();
  return (direction === "debit" ? d.negated() : d).toFixed(scaleOf(amount));
}

/** True when the decimal string is below zero. */
export function isNegative(amount: string): boolean {
  return new Decimal(amount).isNegative() && !new Decimal(amount).isZero();
}

/** Exact sum of decimal strings, keeping the largest scale of the inputs. */
export function sumAmounts(amounts: readonly string[]): string {
  let dp = 0;
  let sum = new Decimal(0);
  for (const a of amounts) {
    dp = Math.max(dp, scaleOf(a));
    sum = sum.plus(a);
  }
  return sum.toFixed(dp);
}
