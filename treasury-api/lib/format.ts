/**
 * Row → API representation helpers shared by every area: amounts as decimal
 * strings with the currency's minor units, timestamps as ISO 8601 (UTC, `Z`),
 * masked IBANs (docs/architecture.md#enumerations).
 */
import Decimal from "decimal.js";
import { sql, type SQL } from "drizzle-orm";
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

/**
 * The minor units of every currency Intl knows whose minor units are not 2, as a JSON object
 * (`{"JPY":0,"KWD":3,…}`; any other code has 2, as `formatAmount` assumes for a code Intl does not know). SQL
 * that formats amounts itself (`amountShownSql`) takes it as a parameter. Computed once.
 */
export function minorUnitsExceptionsJson(): string {
  if (exceptionsJson === undefined) {
    const codes = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("currency") : [];
    const map: Record<string, number> = {};
    for (const code of codes) {
      const digits = minorUnits(code);
      if (digits !== 2) map[code] = digits;
    }
    exceptionsJson = JSON.stringify(map);
  }
  return exceptionsJson;
}
let exceptionsJson: string | undefined;

/** SQL `to_char` pattern that yields what `isoTimestamp` returns, so list queries skip Date parsing in Node. */
export const ISO_UTC_SQL = 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"';

/**
 * SQL text of a stored amount as the API shows it, `formatAmount`'s rule in the database: rounded to the
 * currency's minor units with any extra stored digits kept (`round(amount, greatest(min_scale(amount), minor
 * units))`). For SQL that writes the API's JSON itself (the transaction list page, the import's
 * `transaction.created` events; docs/architecture.md#list-responses).
 * @param amount a numeric column or expression; @param currency a text one (ISO 4217 code)
 */
export function amountShownSql(amount: SQL, currency: SQL): SQL {
  return sql`round(${amount}, greatest(min_scale(${amount}),
    coalesce((${minorUnitsExceptionsJson()}::jsonb ->> ${currency})::int, 2)))::text`;
}
