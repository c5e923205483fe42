/**
 * Paged list reads of the repositories: one page of rows and, when the caller asks for it, the exact number of rows
 * the same filter matches (docs/treasury-api.md#states-and-transitions list responses: `count`).
 */
import { sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../client";

/** Which rows a list answers: `limit` rows after skipping `offset` (both whole numbers, already validated). */
export interface Page {
  limit: number;
  offset: number;
}

/**
 * One page of rows (`rows`, a select not yet run) and, when `withCount`, the number of all rows of `table` matching
 * `where` (else 0), read side by side. Rejects when either query fails.
 */
export async function pageWithCount<R>(
  db: Db,
  rows: PromiseLike<R[]>,
  table: PgTable,
  where: SQL | undefined,
  withCount: boolean,
): Promise<{ rows: R[]; count: number }> {
  const [page, total] = await Promise.all([
    rows,
    withCount
      ? db
          .select({ n: sql<number>`count(*)::int` })
          .from(table)
          .where(where)
      : Promise.resolve([{ n: 0 }]),
  ]);
  return { rows: page, count: Number(total[0]?.n ?? 0) };
}
