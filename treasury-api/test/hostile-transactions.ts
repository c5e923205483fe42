/**
 * Transactions whose JSON is easy to get wrong (test fixture for the database-serialised lists,
 * docs/architecture.md#list-responses): text that JSON must escape or that a careless serialiser would (quotes,
 * backslashes, controls, DEL, U+2028, emoji; PostgreSQL text holds no NUL), amounts of every scale against the
 * currency's minor units (unknown codes included), microsecond timestamps, null end-to-end ids.
 */
import type * as schema from "../db/schema";
import { daysAgo } from "./harness";

export const HOSTILE = [
  'He said "pay"\\now',
  "line\nbreak\ttab\rreturn\bback\fform",
  "\u0001\u001f\u007f controls and del",
  "sep\u2028\u2029 para",
  "Ærøskøbing 💶 Σ </script>",
  "",
];

/** [amount, currency] of `hostileTransactions`' rows, in order. */
export const HOSTILE_AMOUNTS: [string, string][] = [
  ["100.5", "NOK"],
  ["100.500", "EUR"],
  ["7", "SEK"],
  ["0.001", "NOK"],
  ["123456789012.345678", "EUR"],
  ["1500", "JPY"],
  ["1500.0", "JPY"],
  ["12.5", "JPY"],
  ["1.2", "KWD"],
  ["1.23456", "BHD"],
  ["42", "XYZ"],
  ["0", "NOK"],
];

/** The id of hostile row `i` (`idPrefix` 8 hex digits tells sets apart). */
export const hostileId = (idPrefix: string, i: number) =>
  `${idPrefix}-0000-4000-8000-0000000000${String(i).padStart(2, "0")}`;

/** One row per `HOSTILE_AMOUNTS` entry on `account`, booked today and the two days before. */
export function hostileTransactions(
  idPrefix: string,
  owner: { tenantId: string; companyId: string; accountId: string },
): (typeof schema.transactions.$inferInsert)[] {
  return HOSTILE_AMOUNTS.map(([amount, currency], i) => {
    const date = daysAgo(i % 3);
    return {
      id: hostileId(idPrefix, i),
      ...owner,
      amount,
      currency,
      direction: i % 2 ? "debit" : "credit",
      bookedDate: date,
      // Microseconds (to_char keeps milliseconds, as toISOString does); equal times order by id.
      bookedAt: `${date}T${i % 4 === 0 ? "10:00:00.123456" : "23:59:59.999999"}Z`,
      valueDate: daysAgo((i % 3) + 1),
      valueAt: `${daysAgo((i % 3) + 1)}T00:00:00.000001+02:00`,
      counterpartyName: HOSTILE[i % HOSTILE.length],
      remittance: HOSTILE[(i + 1) % HOSTILE.length],
      endToEndId: i % 3 === 0 ? null : HOSTILE[(i + 2) % HOSTILE.length],
      source: "api",
    };
  });
}
