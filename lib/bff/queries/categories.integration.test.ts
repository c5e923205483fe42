/**
 * Cashflow categories across the BFF, the dashboard DB (in-memory PGlite, migrations applied) and the local
 * treasury-api (small demo seed): rules stored in order, the preview over the last 90 days counted against a
 * direct read, background priority and bounded page size of its reads, the per-category cashflow summing to the
 * API's daily cashflow, the transactions page and CSV carrying the category.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../../server/db", async () => (await import("../testing/memory-dashboard-db")).memoryDashboardDbModule());

import Decimal from "decimal.js";
import { addDaysIso, todayUtc } from "../../dates";
import { collectAll, type TreasuryClient } from "../../treasury-client";
import { queryContext, startLocalApi, type LocalApi } from "../testing/local-api";
import { CategoryRuleInput, UNCATEGORISED } from "../../categories/rules";
import type { BffContext } from "../context";
import {
  addCategoryRule,
  categoriesView,
  getCashflowByCategory,
  moveCategoryRuleTo,
  PAGE_SIZE,
  previewCategoryRule,
  removeCategoryRule,
} from "./categories";
import { exportTransactions } from "./exports";
import { listTransactions } from "./ledger";

let local: LocalApi;
let client: TreasuryClient;
let ctx: BffContext;
let companyId: string;
const calls: { priority?: string; pageSize: string | null }[] = [];

beforeAll(async () => {
  local = await startLocalApi();
  const company = local.company();
  companyId = company.id;
  client = local.client;
  const original = client.listTransactions.bind(client);
  client.listTransactions = ((call, q) => {
    calls.push({ priority: (call as { priority?: string }).priority, pageSize: String(q?.pageSize ?? null) });
    return original(call, q);
  }) as typeof client.listTransactions;
  ctx = queryContext(company, "admin");
}, 120_000);

afterAll(async () => {
  await local?.api.close();
});

describe("cashflow categories", () => {
  it("previews a rule on the last 90 days with background reads in bounded pages", async () => {
    const today = todayUtc();
    const all = await collectAll(
      client.listTransactions({ companyId }, { pageSize: 1000, from_date: addDaysIso(today, -89), to_date: today }),
    );
    const expected = all.filter((t) => t.direction === "credit").length;
    expect(expected).toBeGreaterThan(0);
    calls.length = 0;
    const p = await previewCategoryRule(ctx, CategoryRuleInput.parse({ category: "Income", direction: "credit" }));
    expect(p).toMatchObject({ scanned: all.length, matched: expected, would_categorise: expected, truncated: false });
    expect(p.from_date).toBe(addDaysIso(today, -89));
    expect(calls).toEqual([{ priority: "background", pageSize: String(PAGE_SIZE) }]);
  });

  it("stores rules in order; the first match wins in the report, the list and the CSV", async () => {
    const income = await addCategoryRule(CategoryRuleInput.parse({ category: "Income", direction: "credit" }));
    const nordlys = await addCategoryRule(
      CategoryRuleInput.parse({ category: "Intercompany", counterparty_contains: "NORDLYS" }),
    );
    expect((await categoriesView()).categories).toEqual(["Income", "Intercompany", UNCATEGORISED]);
    // Intercompany first: intercompany credits are no longer Income.
    await moveCategoryRuleTo(nordlys.id, 1);
    const today = todayUtc();
    const from = addDaysIso(today, -29);
    const { rows } = await getCashflowByCategory(ctx, from, today);
    const cats = new Set(rows.map((r) => r.category));
    expect(cats).toContain("Income");
    expect(cats).toContain(UNCATEGORISED);
    // Every transaction lands in exactly one category: the sums equal the API's own daily cashflow.
    const daily = await collectAll(
      client.cashflowDaily({ companyId }, { pageSize: 1000, from_date: from, to_date: today }),
    );
    for (const currency of new Set(daily.map((d) => d.currency))) {
      const inflow = daily.filter((d) => d.currency === currency).reduce((s, d) => s.plus(d.inflow), new Decimal(0));
      const ours = rows.filter((r) => r.currency === currency).reduce((s, r) => s.plus(r.inflow), new Decimal(0));
      expect(ours.toFixed(2)).toBe(inflow.toFixed(2));
    }

    const page = await listTransactions(ctx, { from_date: from, to_date: today, page_size: 50 });
    for (const t of page.items) {
      const expected = t.counterparty_name.toLowerCase().includes("nordlys")
        ? "Intercompany"
        : t.direction === "credit"
          ? "Income"
          : UNCATEGORISED;
      expect(t.category).toBe(expected);
    }

    const csv = await (await exportTransactions(ctx, { from_date: from, to_date: today, category: "Income" })).text();
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]?.split(",").at(-1)).toBe("category");
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines.slice(1)) expect(l.endsWith(",Income")).toBe(true);

    await removeCategoryRule(income.id);
    await removeCategoryRule(nordlys.id);
    expect((await categoriesView()).rules).toEqual([]);
  });
});
