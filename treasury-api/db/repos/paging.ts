/**
 * Paged list reads of the repositories: one page of rows and, when the caller asks for it, the exact number of rows
 * the same filter matches (docs/treasury-api.md#states-and-transitions list responses: `count`).
 */
import { and, gte, lt, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { startOfNextDayUtc } from "../../lib/dates";
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

/**
 * One page of `table`'s rows matching `where`, in `orderBy` order (ties broken by the caller's last key, so that
 * following pages never skips a row), and their count when `withCount` (else 0): {@link pageWithCount} over the plain
 * `select … where … order by … limit … offset` that most list reads are. Rejects when either query fails.
 */
export function tablePage<T extends PgTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
  orderBy: SQL[],
  page: Page,
  withCount: boolean,
): Promise<{ rows: T["$inferSelect"][]; count: number }> {
  const rows = db
    .select()
    .from(table as PgTable)
    .where(where)
    .orderBy(...orderBy)
    .limit(page.limit)
    .offset(page.offset) as PromiseLike<T["$inferSelect"][]>;
  return pageWithCount(db, rows, table, where, withCount);
}

/**
 * {@link tablePage} over the rows matching every condition of `conds`, each row turned into the API's resource by
 * `toItem`: `{ rows, count }` as a list read returns it. Rejects when either query fails.
 */
export async function mappedPage<T extends PgTable, U>(
  db: Db,
  table: T,
  conds: SQL[],
  orderBy: SQL[],
  page: Page,
  withCount: boolean,
  toItem: (row: T["$inferSelect"]) => U,
): Promise<{ rows: U[]; count: number }> {
  const { rows, count } = await tablePage(db, table, and(...conds), orderBy, page, withCount);
  return { rows: rows.map(toItem), count };
}

/**
 * The conditions that keep the timestamp `column` within the UTC days `fromDate` to `toDate` (`YYYY-MM-DD`, both
 * inclusive, either omitted): from midnight UTC of `fromDate`, before the start of the day after `toDate`.
 */
export function withinUtcDays(column: PgColumn, fromDate?: string, toDate?: string): SQL[] {
  const conds: SQL[] = [];
  if (fromDate) conds.push(gte(column, `${fromDate}T00:00:00Z`));
  if (toDate) conds.push(lt(column, startOfNextDayUtc(toDate)));
  return conds;
}
