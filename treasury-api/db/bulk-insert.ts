/**
 * Many rows in one statement: `INSERT … SELECT … FROM unnest($1::uuid[], $2::text[], …)` sends one array
 * parameter per column instead of one parameter per cell, so a 5,000-row chunk is a short query that both
 * PGlite and PostgreSQL plan once (docs/bank-files.md "Speed"). Used by the statement import and the webhook outbox.
 */
import { sql, type SQL } from "drizzle-orm";

/** Rows per statement for `unnestColumns` inserts: large enough to amortise a round trip, small enough for memory. */
export const BULK_CHUNK = 5000;

/**
 * One column as an array parameter cast to `type[]` (e.g. `uuid`, `numeric`, `date`, `text`, `jsonb`).
 * @param values the column's values in row order; `null` is SQL NULL
 * @param type a PostgreSQL type name from this code, never from input (it is inlined)
 */
export function arrayParam(values: readonly (string | null)[], type: string): SQL {
  if (!/^[a-z_ ]+$/.test(type)) throw new Error(`arrayParam: unexpected type ${type}`);
  return sql`${sql.param([...values])}::${sql.raw(type)}[]`;
}

/**
 * `unnest(col1, col2, …) AS u(name1, name2, …)` for the given columns (all of the same length).
 * @param columns name → [values, PostgreSQL type]
 */
export function unnestColumns(columns: Record<string, [readonly (string | null)[], string]>): SQL {
  const names = Object.keys(columns);
  const params = names.map((n) => {
    const [values, type] = columns[n] as [readonly (string | null)[], string];
    return arrayParam(values, type);
  });
  return sql`unnest(${sql.join(params, sql`, `)}) AS u(${sql.raw(names.join(", "))})`;
}
