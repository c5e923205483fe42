import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { TEMPLATE_ENV, PGlite as TemplatePGlite } from "./pglite-template";

const dir = mkdtempSync(path.join(tmpdir(), "pglite-template-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the PGlite template of the unit tests", () => {
  it("is made by the global setup, and `@electric-sql/pglite` resolves to the template-backed class", () => {
    const file = process.env[TEMPLATE_ENV];
    expect(file && existsSync(file)).toBe(true);
    expect(PGlite).toBe(TemplatePGlite);
  });

  it(
    "gives a new in-memory database the cluster initdb makes: the standard databases, no tables of its " + "own",
    async () => {
      const pg = new PGlite();
      try {
        const dbs = await pg.query<{ datname: string }>("select datname from pg_database order by datname");
        expect(dbs.rows.map((r) => r.datname)).toEqual(["postgres", "template0", "template1"]);
        const tables = await pg.query("select 1 from pg_tables where schemaname = 'public'");
        expect(tables.rows).toEqual([]);
      } finally {
        await pg.close();
      }
    },
  );

  it("unpacks into a new data folder once; reopening the folder keeps what was written", async () => {
    const folder = path.join(dir, "db");
    const first = new PGlite(folder);
    await first.exec("create table kept (v text); insert into kept values ('written before closing')");
    await first.close();
    const again = new PGlite(folder);
    try {
      expect((await again.query<{ v: string }>("select v from kept")).rows).toEqual([{ v: "written before closing" }]);
    } finally {
      await again.close();
    }
  });
});
