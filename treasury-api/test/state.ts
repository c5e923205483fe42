/**
 * A fingerprint of the business state of a treasury-api database, for tests
 * that assert "a refused request changes nothing": per table of the `public`
 * schema, its row count and the sum of the `xmin` of its rows. Every insert
 * or update writes a row version stamped with a new, larger transaction id,
 * and a delete lowers the count, so any committed change moves one of the
 * two; it is one cheap query (no hashing, no sort). New tables are picked up
 * by themselves. Left out are the tables every request may
 * legitimately touch: access tokens, rate-limit windows, idempotency keys (a
 * 4xx answer is stored for replay like any other) and `meta`.
 */
import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Database } from "../db/client";

const BOOKKEEPING_TABLES = new Set(["access_tokens", "rate_limit_windows", "idempotency_keys", "meta"]);

const queries = new WeakMap<Database, SQL>();

async function checksumQuery(database: Database): Promise<SQL> {
  const cached = queries.get(database);
  if (cached) return cached;
  const tables = await queryRows<{ name: string }>(
    database.db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type =
      'BASE TABLE' order by table_name`,
  );
  const parts = tables
    .filter(({ name }) => !BOOKKEEPING_TABLES.has(name))
    .map(
      ({ name }) =>
        sql`select ${name}::text as name, count(*)::text || ':' || coalesce(sum(x.xmin::text::bigint), 0)::text as
          sum from ${sql.identifier(name)} x`,
    );
  const query = sql.join(parts, sql` union all `);
  queries.set(database, query);
  return query;
}

/** `{ table: "<rows>:<checksum>" }` for every business table. */
export async function stateChecksum(database: Database): Promise<Record<string, string>> {
  const rows = await queryRows<{ name: string; sum: string }>(database.db, await checksumQuery(database));
  return Object.fromEntries(rows.map((r) => [r.name, r.sum]));
}
