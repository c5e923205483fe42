/**
 * Helpers shared by the MT940 / MT942 and BAI2 parsers (docs/bank-files.md):
 * two-digit years, currency minor units, amounts and the re-import identity
 * of entries that formats without a statement id give.
 */
import { Decimal } from "decimal.js";
import { isValid, parseISO } from "date-fns";
import type { ParsedEntry, ParsedStatement } from "./camt053-parse";

/** `YYMMDD` → `YYYY-MM-DD` (years 80–99 are 19YY); null when it is no calendar date. */
export function yymmdd(raw: string): string | null {
  if (!/^\d{6}$/.test(raw)) return null;
  const yy = Number(raw.slice(0, 2));
  const date = `${yy >= 80 ? 1900 + yy : 2000 + yy}-${raw.slice(2, 4)}-${raw.slice(4, 6)}`;
  return isValid(parseISO(date)) ? date : null;
}

const MINOR_UNITS = new Map<string, number>();

/** ISO 4217 minor units of a currency (2 when the platform does not know it); cached, it is asked per amount. */
export function minorUnits(currency: string): number {
  let digits = MINOR_UNITS.get(currency);
  if (digits === undefined) {
    try {
      digits =
        new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    MINOR_UNITS.set(currency, digits);
  }
  return digits;
}

/** A decimal string with at least the currency's minor units and never fewer digits than given. */
export function moneyText(value: Decimal, currency: string): string {
  return value.toFixed(Math.max(minorUnits(currency), value.decimalPlaces()));
}

const NO_REF = new Set(["", "NONREF", "NOTPROVIDED", "NONE"]);

/** A reference as written, or null for the placeholders banks write when there is none (NONREF, NOTPROVIDED). */
export function realRef(ref: string | null | undefined): string | null {
  const t = (ref ?? "").trim();
  return NO_REF.has(t.toUpperCase()) ? null : t;
}

/**
 * Gives every entry of the file its re-import identity (docs/bank-files.md "Re-import identity"):
 * with a bank reference `asr:REF|direction|amount|booking date`, otherwise
 * `FORMAT:booking date|value date|direction|amount|customer reference`, each
 * with `#n`, its occurrence among identical entries of the same account in
 * the file. A later file that overlaps this one (the same days again) yields
 * the same keys for the same entries, so nothing is stored twice.
 */
export function assignEntryKeys(
  format: string,
  statements: ParsedStatement[],
  customerRef: (e: ParsedEntry) => string | null,
): void {
  const seen = new Map<string, number>();
  for (const stmt of statements) {
    const account = `${stmt.account.bankId ?? ""}/${stmt.account.ref}`;
    for (const e of stmt.entries) {
      const amount = new Decimal(e.amount).toFixed();
      const booked = (e.booked ?? e.value).date;
      const base =
        e.accountServicerRef !== null
          ? `asr:${e.accountServicerRef}|${e.direction}|${amount}|${booked}`
          : `${format}:${booked}|${e.value.date}|${e.direction}|${amount}|${customerRef(e) ?? ""}`;
      const n = seen.get(`${account} ${base}`) ?? 0;
      seen.set(`${account} ${base}`, n + 1);
      e.dedupeKey = `${base}#${n}`;
    }
  }
}

/** Collapses runs of blanks and trims. */
export function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
