"use client";

import { formatMoney, isNegative } from "@/lib/money";
import { useLocale } from "./use-locale";

/**
 * An amount with its currency code: tabular numerals, the
 * minus sign kept and negative values in red, so a debit is recognisable
 * without colour too. `signed` adds `+` to positive values (changes, flows).
 * The decimal string is formatted exactly (no float).
 */
export function Amount({
  value,
  currency,
  signed = false,
  className = "",
}: {
  value: string;
  currency: string;
  signed?: boolean;
  className?: string;
}) {
  const locale = useLocale();
  const neg = isNegative(value);
  return (
    <span
      className={`tabular whitespace-nowrap ${neg ? "text-red-700" : ""} ${className}`}
      data-amount={value}
      data-currency={currency}
    >
      {formatMoney(value, currency, { locale, signed })}
    </span>
  );
}

/** A business date `YYYY-MM-DD` in the viewer's locale, never shifted by a time zone. */
export { BusinessDate } from "./business-date";
