/**
 * The accounts list over all accounts of a company, against
 * the real local treasury-api (in-memory PGlite, small demo seed) with 55
 * extra accounts, so that the company has two pages of 50: bank filter,
 * coverage-gap filter and sorts act on every account; the upstream reads
 * are counted (only the page shown is enriched unless a balance is needed;
 * a repeat within the cache time costs no read). The API's account-summaries
 * extension is not advertised here (capabilities without extensions): this
 * is the per-account path of an API that offers only the spec's reads; the
 * summaries path is counted in upstream-budget.integration.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";

vi.mock("server-only", () => ({}));

import Decimal from "decimal.js";
import { randomUUID } from "node:crypto";
import { manyAccounts } from "../../../e2e/many-accounts";
import type { Account } from "@treasury/contract";
import { todayUtc } from "../../dates";
import { collectAll, type TreasuryClient } from "../../treasury-client";
import { queryContext, startLocalApi, type LocalApi } from "../testing/local-api";
import { coverageWindow } from "../../views/coverage";
import type { BffContext } from "../context";
import { mapLimit } from "./map-limit";
import { ACCOUNTS_PAGE_SIZE, invalidateAccountCache, listAccountRows, recentWindow } from "./account-rows";

let local: LocalApi;
let client: TreasuryClient;
let ctx: BffContext;
let companyId: string;
let accounts: Account[];
const reads: string[] = [];

beforeAll(async () => {
  local = await startLocalApi({
    // The per-account path: an API that offers only the spec's reads.
    capabilities: "none",
    fetch: (input, init, next) => {
      const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
      if ((init?.method ?? "GET") === "GET" && path.includes("/accounts")) reads.push(path);
      return next(input, init);
    },
  });
  const company = local.company();
  companyId = company.id;
  client = local.client;
  await mapLimit(manyAccounts(companyId, 55), 6, (body) =>
    client.upsertAccount({ companyId, idempotencyKey: randomUUID() }, body),
  );
  ctx = queryContext(company);
  accounts = await collectAll(client.listAccounts({ companyId }, { pageSize: 1000 }));
}, 120_000);

afterAll(async () => {
  await local?.api.close();
});

/** Headline booked balance of an account from the API's snapshots: today's interim, else the latest ended closing. */
async function bookedOf(id: string): Promise<string | null> {
  const snaps = await collectAll(client.listAccountBalances({ companyId }, id, { pageSize: 1000 }));
  const today = new Date().toISOString().slice(0, 10);
  const booked =
    snaps.find((s) => s.balance_type === "interim_booked" && s.as_of_date === today) ??
    snaps
      .filter((s) => s.balance_type === "closing_booked" && s.as_of_date < today)
      .sort((a, b) => b.as_of_date.localeCompare(a.as_of_date))[0];
  return booked?.balance ?? null;
}

describe("listAccountRows", () => {
  it("without filters pages as the API does", async () => {
    expect(accounts.length).toBe(57);
    const first = await listAccountRows(ctx, {});
    expect(first.page).toMatchObject({ count: 57, page: 1, total_pages: 2, has_next: true });
    expect(first.page.items).toHaveLength(ACCOUNTS_PAGE_SIZE);
    expect(first.spansAll).toBe(false);
    expect(first.totals.scope).toBe("page");
    const second = await listAccountRows(ctx, { page: 2 });
    expect(second.page.items.map((r) => r.account.id)).toEqual(accounts.slice(50).map((a) => a.id));
  });

  it("the bank filter finds an account that the API puts on page 2", async () => {
    const last = accounts[56];
    if (!last) throw new Error("no account 57");
    const v = await listAccountRows(ctx, { bank: last.bank_name });
    const expected = accounts.filter((a) => a.bank_name === last.bank_name);
    expect(v.page.items.map((r) => r.account.id).sort()).toEqual(expected.map((a) => a.id).sort());
    expect(v.page).toMatchObject({ count: expected.length, page: 1, total_pages: 1 });
    expect(v.totals.scope).toBe("all");
  });

  it("sorting by booked balance orders every account (decimal), those without a balance last", async () => {
    const v = await listAccountRows(ctx, { sort: "-balance" });
    const balances = await Promise.all(accounts.map(async (a) => ({ id: a.id, booked: await bookedOf(a.id) })));
    const withBalance = balances
      .filter((b) => b.booked !== null)
      .sort((a, b) => new Decimal(b.booked ?? 0).cmp(a.booked ?? 0));
    expect(withBalance.length).toBeGreaterThan(0);
    expect(v.page.items.slice(0, withBalance.length).map((r) => r.account.id)).toEqual(withBalance.map((b) => b.id));
    expect(v.page.items.slice(withBalance.length).every((r) => r.booked === null)).toBe(true);
    // Totals cover every account, not the page: the sum of the API's balances per currency.
    const nok = withBalance.reduce((s, b) => s.plus(b.booked ?? 0), new Decimal(0));
    expect(v.totals).toMatchObject({ scope: "all" });
    expect(new Decimal(v.totals.totals.find((t) => t.currency === "NOK")?.total ?? "0").equals(nok)).toBe(true);
  });

  it("the coverage-gap filter counts every account with a partial or missing day in the window", async () => {
    const { from, to } = recentWindow(todayUtc());
    const gaps = [];
    for (const a of accounts) {
      const cells = coverageWindow(
        await collectAll(
          client.listAccountCoverage({ companyId }, a.id, { from_date: from, to_date: to, pageSize: 1000 }),
        ),
        from,
        to,
      );
      if (cells.some((c) => c.state !== "complete")) gaps.push(a.id);
    }
    const v = await listAccountRows(ctx, { coverage: "gaps" });
    expect(v.page.count).toBe(gaps.length);
    const page2 = await listAccountRows(ctx, { coverage: "gaps", page: 2 });
    expect([...v.page.items, ...page2.page.items].map((r) => r.account.id).sort()).toEqual([...gaps].sort());
  });

  it("a text sort enriches only the page shown, and a repeat is served from the cache", async () => {
    invalidateAccountCache(companyId);
    reads.length = 0;
    // The rows are kept 2 s; on a loaded machine 101 reads can take longer than that, so the cache's clock is held
    // still for both views: this asserts what a repeat within the cache time costs, not how fast the first view is.
    const frozen = Date.now();
    const clock = vi.spyOn(Date, "now").mockReturnValue(frozen);
    onTestFinished(() => clock.mockRestore());
    const v = await listAccountRows(ctx, { sort: "-name" });
    expect(v.page.items[0]?.account.name).toBe("Skattetrekkskonto");
    // One list read (pages of 1,000) and two reads per account on the page; none for the other 7.
    expect(reads.filter((p) => p.endsWith("/accounts"))).toHaveLength(1);
    expect(reads.length).toBe(1 + 2 * ACCOUNTS_PAGE_SIZE);
    reads.length = 0;
    await listAccountRows(ctx, { sort: "-name" });
    expect(reads).toEqual([]);
  });
});
