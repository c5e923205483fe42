import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, gt } from "drizzle-orm";
import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { openDatabase, type Database } from "../client";
import { pageWithCount } from "./paging";

// Tables of this test only: one with five rows, one that does not exist in the database.
const items = pgTable("paging_test_items", { n: integer("n").notNull(), name: text("name").notNull() });
const missing = pgTable("paging_test_missing", { n: integer("n").notNull() });

let database: Database;

beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory" });
  await database.exec(`create table paging_test_items (n integer not null, name text not null);
    insert into paging_test_items values (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e');`);
}, 60_000);
afterAll(async () => {
  await database?.close();
});

const page = (limit: number, offset: number, where = gt(items.n, 0)) =>
  database.db.select().from(items).where(where).orderBy(asc(items.n)).limit(limit).offset(offset);

describe("pageWithCount", () => {
  it("answers the page and the count of every row the same filter matches", async () => {
    const r = await pageWithCount(database.db, page(2, 1), items, gt(items.n, 0), true);
    expect(r).toEqual({
      rows: [
        { n: 2, name: "b" },
        { n: 3, name: "c" },
      ],
      count: 5,
    });
    const filtered = await pageWithCount(database.db, page(10, 0, gt(items.n, 2)), items, gt(items.n, 2), true);
    expect(filtered.rows.map((x) => x.n)).toEqual([3, 4, 5]);
    expect(filtered.count).toBe(3);
    const beyond = await pageWithCount(database.db, page(2, 10), items, undefined, true);
    expect(beyond).toEqual({ rows: [], count: 5 });
  });

  it("counts nothing (0) when not asked, and runs no count query then", async () => {
    // The count would read a table that does not exist: not asked, it is never run.
    const r = await pageWithCount(database.db, page(1, 0), missing, undefined, false);
    expect(r).toEqual({ rows: [{ n: 1, name: "a" }], count: 0 });
    await expect(pageWithCount(database.db, page(1, 0), missing, undefined, true)).rejects.toThrow();
  });
});
