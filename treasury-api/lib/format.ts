/**
 * Row → API representation helpers shared by every area: amounts as decimal
 * strings with the currency's minor units, timestamps as ISO 8601 (UTC, `Z`),
 * masked IBANs (docs/architecture.md#enumerations).
 */
import Decimal from "decimal.js";
import { currencyMinorUnits } from "@treasury/contract/common";

const digitsCache = new Map<string, number>();
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function minorUnits(currency: string): number {
  let d = digitsCache.get(currency);
  if (d === undefined) {
    try {
      d = currencyMinorUnits(currency);
    } catch {
      d = 2;
    }
    digitsCache.set(currency, d);
  }
  return d;
}

/**
 * A numeric column value (string) as a decimal string with at least the
 * currency's minor-unit digits; extra digits a bank sent are kept, never rounded.
 */
export function formatAmount(value: string | number | Decimal, currency: string): string {
  if (typeof value === "string") {
    // Hot path for list responses: a stored value that already has the currency's digits is returned as is.
    const dot = value.indexOf(".");
    const digits = minorUnits(currency);
    if ((dot < 0 ? digits === 0 : value.length - dot - 1 === digits) && PLAIN_DECIMAL.test(value)) return value;
  }
  const d = new Decimal(value);
  const digits = Math.max(minorUnits(currency), d.decimalPlaces());
  return d.toFixed(digits);
}

/** A timestamptz column value ("2026-01-10 08:15:00+00") as ISO 8601 ("2026-01-10T08:15:00.000Z"). */
export function isoTimestamp(value: string | Date): string {
  if (typeof value === "string" && ISO_UTC.test(value)) return value; // already formatted by SQL (see ISO_UTC_SQL)
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** `NO9386011117947` → `NO93*******7947`: first four, then `*`, then the last four. */
export function maskIban(ref: string): string {
  const s = ref.replace(/\s+/g, "");
  if (s.length <= 8) return `${s.slice(0, 2)}${"*".repeat(Math.max(0, s.length - 2))}`;
  return `${s.slice(0, 4)}${"*".repeat(s.length - 8)}${s.slice(-4)}`;
}

/** SQL `to_char` pattern that yields what `isoTimestamp` returns, so list queries skip Date parsing in Node. */
export const ISO_UTC_SQL = 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"';
