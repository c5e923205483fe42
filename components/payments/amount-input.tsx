"use client";

import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { parseAmount } from "@/lib/payments/amount-input";
import { formatMoney } from "@/lib/money";

/**
 * An amount typed the user's way ("1.234,50", "1 234,50", "1,234.50"; lib/payments/amount-input.ts reads it with
 * the browser's locale): the field shows what was typed, the form holds the plain decimal string ("1234.50"), or
 * the text itself while it is not an amount (so validation names the problem). When the text alone was
 * ambiguous ("1.234"), a line under it says how it was read.
 */
export function AmountInput({
  id,
  name,
  value,
  onChange,
  onBlur,
  locale,
  currency,
  placeholder,
  invalid,
  describedBy,
  className,
  onKeyDown,
}: {
  id: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  locale: string;
  currency: string;
  placeholder: string;
  invalid: boolean;
  describedBy?: string;
  className: string;
  onKeyDown?: (e: KeyboardEvent<HTMLInputElement>) => void;
}) {
  const [text, setText] = useState(value);
  const emitted = useRef(value);
  // A value set from outside (CSV import, duplicate row, a reset) replaces the text.
  useEffect(() => {
    if (value !== emitted.current) {
      emitted.current = value;
      setText(value);
    }
  }, [value]);
  const parsed = parseAmount(text, locale);
  const readAs = parsed.ok && parsed.assumed ? parsed.value : null;
  return (
    <>
      <input
        id={id}
        name={name}
        value={text}
        onChange={(e) => {
          const t = e.target.value;
          setText(t);
          const p = parseAmount(t, locale);
          const next = p.ok ? p.value : t;
          emitted.current = next;
          onChange(next);
        }}
        onBlur={onBlur}
        onKeyDown={onKeyDown}
        inputMode="decimal"
        autoComplete="off"
        placeholder={placeholder}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={[describedBy, readAs ? `${id}-read` : ""].filter(Boolean).join(" ") || undefined}
        className={className}
      />
      {readAs && !invalid && (
        <span id={`${id}-read`} className="mt-0.5 block text-right text-xs text-slate-600" data-testid="amount-read-as">
          read as {safeMoney(readAs, currency, locale)}
        </span>
      )}
    </>
  );
}

function safeMoney(value: string, currency: string, locale: string): string {
  try {
    return formatMoney(value, currency, { locale });
  } catch {
    return `${value} ${currency}`;
  }
}
