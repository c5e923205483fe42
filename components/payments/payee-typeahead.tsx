"use client";

import { useId, useMemo, useState } from "react";
import { electronicFormatIBAN, friendlyFormatIBAN } from "ibantools";
import { BadgeCheck, CircleAlert, Clock } from "lucide-react";
import type { PayeeOption } from "@/lib/views/payment-run";

export type { PayeeOption };

/** Most suggestions shown at once. */
const MAX_SUGGESTIONS = 8;

const key = (s: string) => electronicFormatIBAN(s.trim()) ?? s.replace(/[\s-]+/g, "").toUpperCase();

/**
 * Suggestions for `query`: counterparties whose name contains it (case
 * ignored) or whose IBAN contains it (spaces ignored), verified ones first,
 * then by name; at most {@link MAX_SUGGESTIONS}.
 */
export function suggestPayees(payees: readonly PayeeOption[], query: string): PayeeOption[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const ibanQ = key(query);
  return payees
    .filter((p) => p.name.toLowerCase().includes(q) || (ibanQ.length >= 4 && p.iban.includes(ibanQ)))
    .sort((a, b) => (a.status === b.status ? a.name.localeCompare(b.name) : a.status === "verified" ? -1 : 1))
    .slice(0, MAX_SUGGESTIONS);
}

/** How a row's payee stands: a verified counterparty with this IBAN, a pending one, or none (ad hoc). */
export function payeeStanding(payees: readonly PayeeOption[], iban: string): "verified" | "pending" | "ad_hoc" | null {
  if (!iban.trim()) return null;
  const k = key(iban);
  const same = payees.filter((p) => p.iban === k);
  if (same.some((p) => p.status === "verified")) return "verified";
  if (same.length) return "pending";
  return "ad_hoc";
}

/** The flag under a row: verified, pending verification, or "not a verified counterparty". */
export function PayeeFlag({ standing }: { standing: ReturnType<typeof payeeStanding> }) {
  if (!standing) return null;
  if (standing === "verified")
    return (
      <span className="inline-flex items-center gap-1 text-xs text-emerald-700" data-testid="payee-flag">
        <BadgeCheck className="size-3.5" aria-hidden /> Verified counterparty
      </span>
    );
  return (
    <span
      className={
        "inline-flex items-center gap-1 rounded bg-amber-50 px-1.5 py-0.5 " + "text-xs font-medium text-amber-800"
      }
      data-testid="payee-flag"
    >
      {standing === "pending" ? (
        <>
          <Clock className="size-3.5" aria-hidden /> Counterparty pending verification — not a verified counterparty
        </>
      ) : (
        <>
          <CircleAlert className="size-3.5" aria-hidden /> Not a verified counterparty
        </>
      )}
    </span>
  );
}

/**
 * The creditor-name cell as a combobox (ARIA 1.2 pattern): typing a name or
 * part of an IBAN lists matching counterparties, verified first; arrow keys
 * move, Enter or a click picks one (name, IBAN, BIC and default remittance
 * are filled by `onPick`), Escape closes. Free text stays allowed: an ad-hoc
 * creditor is flagged, not refused.
 */
export function PayeeTypeahead({
  id,
  label,
  payees,
  inputProps,
  value,
  invalid,
  describedBy,
  onPick,
}: {
  id: string;
  label: string;
  payees: readonly PayeeOption[];
  /** react-hook-form `register(...)` of the name field. */
  inputProps: React.InputHTMLAttributes<HTMLInputElement> & { ref: React.Ref<HTMLInputElement> };
  value: string;
  invalid: boolean;
  describedBy?: string;
  onPick: (p: PayeeOption) => void;
}) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const options = useMemo(() => suggestPayees(payees, value), [payees, value]);
  const shown = open && options.length > 0;
  const pick = (p: PayeeOption) => {
    onPick(p);
    setOpen(false);
  };
  return (
    <div className="relative">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        {...inputProps}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown ? `${listId}-${active}` : undefined}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        placeholder="Name or IBAN"
        className={
          "h-8 w-full rounded-md border bg-white px-2 text-[13px] text-slate-900 placeholder:text-slate-400 " +
          (invalid ? "border-red-500" : "border-slate-300")
        }
        onChange={(e) => {
          void inputProps.onChange?.(e);
          setOpen(true);
          setActive(0);
        }}
        onBlur={(e) => {
          void inputProps.onBlur?.(e);
          setOpen(false);
        }}
        onKeyDown={(e) => {
          if (!shown) {
            if (e.key === "ArrowDown" && options.length) setOpen(true);
            return;
          }
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setActive((a) => (a + 1) % options.length);
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((a) => (a - 1 + options.length) % options.length);
          } else if (e.key === "Enter") {
            e.preventDefault();
            const p = options[active];
            if (p) pick(p);
          } else if (e.key === "Escape") {
            setOpen(false);
          }
        }}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Counterparties"
        hidden={!shown}
        className={
          "absolute left-0 z-20 mt-1 max-h-72 w-[min(28rem,90vw)] overflow-auto rounded-md " +
          "border border-slate-200 bg-white py-1 shadow-lg"
        }
      >
        {options.map((p, i) => (
          <li
            key={p.id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            data-testid="payee-option"
            // mousedown, not click: the input's blur would close the list first.
            onMouseDown={(e) => {
              e.preventDefault();
              pick(p);
            }}
            onMouseEnter={() => setActive(i)}
            className={`flex cursor-pointer items-start justify-between gap-3 px-3 py-1.5 ${
              i === active ? "bg-slate-100" : ""
            }`}
          >
            <span className="min-w-0">
              <span className="block truncate text-[13px] text-slate-900">{p.name}</span>
              <span className="block font-mono text-xs text-slate-600">{friendlyFormatIBAN(p.iban)}</span>
            </span>
            {p.status === "verified" ? (
              <span className="shrink-0 text-xs text-emerald-700">verified</span>
            ) : (
              <span className="shrink-0 text-xs text-amber-800">pending verification</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
