/**
 * The sentence of a risk signal with its amounts formatted: kept apart from
 * risk-signals.ts so the browser can format a signal in the viewer's locale
 * without loading the rules (decimal.js, any-ascii, the holiday calendars).
 * See lib/payments/risk-signals.ts for the signals themselves.
 */
import { formatMoney } from "../money";

/** An amount named in a signal's sentence: a decimal string and its currency. */
export interface MessageAmount {
  amount: string;
  currency: string;
}

/**
 * `template` with each `{i}` replaced by `amounts[i]` formatted by `format` (default: the app's `formatMoney`,
 * en-GB: "NOK 12,500.00"); an index without an amount stays as written.
 * @example renderSignalMessage("{0} may have been paid already.", [{ amount: "12500.00", currency: "DKK" }])
 *   → "DKK 12,500.00 may have been paid already."
 */
export function renderSignalMessage(
  template: string,
  amounts: readonly MessageAmount[],
  format: (a: MessageAmount) => string = (a) => formatMoney(a.amount, a.currency),
): string {
  return template.replaceAll(/\{(\d+)\}/g, (whole, i: string) => {
    const a = amounts[Number(i)];
    return a ? format(a) : whole;
  });
}
