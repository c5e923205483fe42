/**
 * Transaction lists serialised by the database (`listTransactionsJson` + `jsonListHandler`,
 * docs/architecture.md#list-responses) answer byte-for-byte what the Node path (`listTransactions` rows through
 * `listBody` and `JSON.stringify`) answers for the same data: rows with hostile text, amounts of every scale and
 * currency, microsecond timestamps and nulls; envelopes of first, middle, last and past-the-end pages with their
 * next/previous links (also behind a trusted proxy); Form A arrays; and through HTTP, the status and Content-Type.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currencyMinorUnits } from "@treasury/contract/common";
import { MIGRATIONS_FOLDER } from "../../db/client";
import type { Context } from "hono";
import { eq } from "drizzle-orm";
import * as schema from "../../db/schema";
import { listTransactions, listTransactionsJson, type TransactionFilter } from "../../db/repos/ledger";
import { listBody, listBodyJson, type Paging } from "../../lib/lists";
import type { AppEnv } from "../../lib/context";
import type { DataScope } from "../../lib/scope";
import { IDS, createHarness, daysAgo, type Harness } from "../../test/harness";
import { HOSTILE, HOSTILE_AMOUNTS, hostileId, hostileTransactions } from "../../test/hostile-transactions";

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
  await h.database.db
    .insert(schema.transactions)
    .values(
      hostileTransactions("61000000", { tenantId: IDS.tenant, companyId: IDS.companyA, accountId: IDS.accountA1 }),
    );
});
afterAll(() => h.close());

const scopeA: DataScope = { tenantId: IDS.tenant, companyIds: [IDS.companyA] };
const FILTERS: TransactionFilter[] = [
  {},
  { accountId: IDS.accountA1 },
  { accountId: IDS.accountA1, fromDate: daysAgo(2), toDate: daysAgo(0) },
  { direction: "debit" },
  { currency: "JPY" },
  { accountId: IDS.accountB1 }, // another company's account: nothing
];
const FULL_PAGE = { limit: 1000, offset: 0 };
const PAGES = [
  { limit: 1000, offset: 0 },
  { limit: 7, offset: 0 },
  { limit: 7, offset: 7 },
  { limit: 5, offset: 50 },
  { limit: 3, offset: 100_000 }, // past the end: an empty array
];

describe("listTransactionsJson", () => {
  it("is JSON.stringify of listTransactions' rows, for every filter and page", async () => {
    let compared = 0;
    for (const f of FILTERS)
      for (const page of PAGES) {
        const old = await listTransactions(h.database.db, scopeA, f, page, true);
        const now = await listTransactionsJson(h.database.db, scopeA, f, page, true);
        expect(now.json, JSON.stringify({ f, page })).toBe(JSON.stringify(old.rows));
        expect(now.count).toBe(old.count);
        compared += old.rows.length;
      }
    expect(compared).toBeGreaterThan(100);
  });

  it("keeps the tenant check although the page is cut by company: another tenant's company yields nothing", async () => {
    const own = await listTransactionsJson(h.database.db, scopeA, {}, FULL_PAGE, true);
    expect(own.json).not.toBe("[]");
    const tenant2Rows = await listTransactions(
      h.database.db,
      { tenantId: IDS.tenant2, companyIds: null },
      {},
      FULL_PAGE,
      false,
    );
    expect(tenant2Rows.rows.length).toBeGreaterThan(0);
    // A scope that pairs tenant 1 with tenant 2's company (never built by lib/scope, but the SQL must not trust that).
    const crossed = { tenantId: IDS.tenant, companyIds: [IDS.companyD] };
    expect((await listTransactionsJson(h.database.db, crossed, {}, FULL_PAGE, false)).json).toBe("[]");
  });

  it("formats the hostile rows as the Node path does (amounts, escapes, nulls)", async () => {
    const { json } = await listTransactionsJson(h.database.db, scopeA, { accountId: IDS.accountA1 }, FULL_PAGE, false);
    const rows = JSON.parse(json) as Record<string, unknown>[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const amountOf = (i: number) => byId.get(hostileId("61000000", i));
    expect(HOSTILE_AMOUNTS.map((_, i) => amountOf(i)?.amount)).toEqual([
      "100.50",
      "100.50",
      "7.00",
      "0.001",
      "123456789012.345678",
      "1500",
      "1500",
      "12.5",
      "1.200",
      "1.23456",
      "42.00",
      "0.00",
    ]);
    expect(amountOf(0)?.end_to_end_id).toBeNull();
    expect(amountOf(1)?.counterparty_name).toBe(HOSTILE[1]);
    expect(amountOf(2)?.counterparty_name).toBe(HOSTILE[2]);
    expect(amountOf(0)?.booked_at).toMatch(/T10:00:00\.123Z$/);
  });

  it("escapes controls as \\uXXXX and keeps U+2028 and non-ASCII as they are, like JSON.stringify", async () => {
    const { json } = await listTransactionsJson(h.database.db, scopeA, { accountId: IDS.accountA1 }, FULL_PAGE, false);
    expect(json).toContain(String.raw`\u0001\u001f` + "\u007f");
    expect(json).toContain("sep\u2028\u2029 para");
    expect(json).toContain("💶");
  });
});

/** The parts of a Hono context `listBody` reads: the request URL, its headers and the config's trustProxy. */
function fakeContext(url: string, headers: Record<string, string>, trustProxy: boolean): Context<AppEnv> {
  return {
    req: { url, header: (name: string) => headers[name.toLowerCase()] },
    get: (key: string) => (key === "config" ? { trustProxy } : undefined),
  } as unknown as Context<AppEnv>;
}

describe("migrations 0010 and 0011's transaction_json", () => {
  it.each(["0010_transaction_json.sql", "0011_transaction_json_plpgsql.sql"])(
    "%s names the currencies whose minor units are not 2 exactly as formatAmount's Intl lookup does",
    (file) => {
      const text = readFileSync(path.join(MIGRATIONS_FOLDER, file), "utf8");
      const literal = /\('(\{[^']*\})'::jsonb ->> currency\)/.exec(text)?.[1];
      expect(literal).toBeDefined();
      const exceptions = Object.fromEntries(
        Intl.supportedValuesOf("currency").flatMap((code) => {
          const digits = currencyMinorUnits(code);
          return digits === 2 ? [] : [[code, digits]];
        }),
      );
      expect(JSON.parse(literal ?? "{}")).toEqual(exceptions);
    },
  );

  it("follows a row's update (the column is generated from the row)", async () => {
    const [row] = await h.database.db
      .select({ id: schema.transactions.id, remittance: schema.transactions.remittance })
      .from(schema.transactions)
      .limit(1);
    await h.database.db
      .update(schema.transactions)
      .set({ remittance: `${row?.remittance ?? ""} "changed"` })
      .where(eq(schema.transactions.id, row?.id ?? ""));
    const [after] = await h.database.db
      .select({ json: schema.transactions.json })
      .from(schema.transactions)
      .where(eq(schema.transactions.id, row?.id ?? ""));
    expect(JSON.parse(after?.json ?? "{}").remittance).toBe(`${row?.remittance ?? ""} "changed"`);
  });
});

describe("listBodyJson", () => {
  const rows = [{ id: "a", amount: "1.00", end_to_end_id: null }, { id: "b" }];
  const pagings: Paging[] = [
    { limit: 2, offset: 0, page: 1, pageSize: 2, needsCount: true },
    { limit: 2, offset: 2, page: 2, pageSize: 2, needsCount: true },
    { limit: 2, offset: 8, page: 5, pageSize: 2, needsCount: true },
    { limit: 2, offset: 198, page: 100, pageSize: 2, needsCount: true }, // past the end
    { limit: 2, offset: 0, page: 1, pageSize: 2, needsCount: false }, // Form A
  ];
  const contexts = [
    fakeContext("http://127.0.0.1:4010/public/transactions?page_size=2&currency=NOK&x=%22%5C", {}, false),
    fakeContext(
      "http://127.0.0.1:4010/public/transactions/?page=2&page_size=2",
      { "x-forwarded-proto": "https", "x-forwarded-host": "api.example.com" },
      true,
    ),
  ];

  it("is JSON.stringify of listBody, links included, for every page and form", () => {
    for (const c of contexts)
      for (const paging of pagings)
        for (const [list, count] of [
          [rows, 9],
          [[], 0],
          [[], 9],
        ] as const) {
          const expected = JSON.stringify(listBody(c, paging, [...list], count));
          expect(listBodyJson(c, paging, JSON.stringify(list), count)).toBe(expected);
        }
  });
});

describe("GET /transactions and /accounts/{id}/transactions over HTTP", () => {
  it("answer the Node path's bytes with the status and Content-Type of other lists", async () => {
    const cases: { path: string; client: "fullB" | "partnerA"; f: TransactionFilter; paging: Paging }[] = [
      {
        path: "/transactions?page_size=5&page=2",
        client: "fullB",
        f: {},
        paging: { limit: 5, offset: 5, page: 2, pageSize: 5, needsCount: true },
      },
      {
        path: `/accounts/${IDS.accountA1}/transactions?page_size=1000&direction=debit`,
        client: "fullB",
        f: { accountId: IDS.accountA1, direction: "debit" },
        paging: { limit: 1000, offset: 0, page: 1, pageSize: 1000, needsCount: true },
      },
      {
        path: "/transactions?limit=4",
        client: "partnerA",
        f: {},
        paging: { limit: 4, offset: 0, page: 1, pageSize: 4, needsCount: false },
      },
    ];
    const accounts = await h.call("GET", "/accounts", { client: "fullB", company: IDS.companyA });
    for (const { path, client, f, paging } of cases) {
      const res = await h.call("GET", path, { client, company: IDS.companyA });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toBe(accounts.headers.get("content-type"));
      const old = await listTransactions(h.database.db, scopeA, f, paging, paging.needsCount);
      const c = fakeContext(`http://localhost/public${path}`, {}, false);
      expect(await res.text(), path).toBe(JSON.stringify(listBody(c, paging, old.rows, old.count)));
    }
  });
});
