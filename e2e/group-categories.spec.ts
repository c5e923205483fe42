/**
 * Group cashflow by category: an admin's rule (counterparty contains "nordlys", placed first) is summed across
 * every company in EUR, and the group figures equal those computed here independently from each company's
 * transactions read through the BFF (booking date, the rule's condition applied here, each (company, date,
 * currency) day's inflow and outflow converted with the seeded demo rates half-even to 2 decimals — as the group
 * cashflow report converts that day — and split across the day's categories in proportion to their original amounts
 * (lib/group/group-categories.ts `allocate`, the weights of the other categories from the API's lines), net =
 * converted inflow − converted outflow: e2e/group-figures.ts). The group total equals the days converted whole (one
 * figure, one number with the cashflow report). Every transaction of the range is counted once. The Group scope
 * of the cashflow report shows the category, its per-company rows and the total; the CSV carries every line's
 * original and converted figures with the rate and its date. Bad input is a 400 naming the field. Screenshots (desktop
 * and 390 px) go to e2e/screenshots/group-report-categories*.png.
 *
 * On a quiet stack (e2e/quiet-stack.ts): the API's figures, the independent sum and the page are read one after
 * another, so they must be read from data nothing writes to meanwhile (on the shared server other specs' payments
 * settle into the same companies today).
 */
import path from "node:path";
import { randomUUID } from "node:crypto";
import Decimal from "decimal.js";
import { SCREENSHOTS } from "./fixtures";
import { allocate } from "../lib/group/group-categories";
import {
  all,
  convert,
  CONVERTED_CSV_COLUMNS,
  eurGroupLast30Days,
  expectConvertedRates,
  getCsv,
  selectCompany,
} from "./group-figures";
import { expect, test } from "./quiet-stack";
import { axe } from "./read-helpers";

interface Tx {
  direction: "credit" | "debit";
  amount: string;
  currency: string;
  booked_at: string;
  booked_date?: string;
  counterparty_name: string;
}
interface Figures {
  inflow: string;
  outflow: string;
  net: string;
}
interface CategoriesBody {
  reportingCurrency: string;
  categories: {
    category: string;
    count: number;
    figures: Figures;
    byCompany: { id: string; count: number; figures: Figures }[];
  }[];
  companies: { id: string; count: number }[];
  total: Figures;
  lines: { companyId: string; category: string; date: string; currency: string; original: Figures }[];
  failedCompanies: unknown[];
  truncatedCompanies: unknown[];
}

const zero = () => ({ inflow: new Decimal(0), outflow: new Decimal(0), count: 0 });
type Sum = ReturnType<typeof zero>;
const fixed = (s: Sum): Figures => ({
  inflow: s.inflow.toFixed(2),
  outflow: s.outflow.toFixed(2),
  net: s.inflow.minus(s.outflow).toFixed(2),
});

test("the group category figures are each company's transactions converted with the demo rates", async ({
  browser,
  quietStack,
}) => {
  test.setTimeout(240_000);
  const writeHeaders = quietStack.writeHeaders;
  // A user no other test switches the reporting currency of.
  const page = await quietStack.signIn(browser, "approver3");
  const category = `Group nordlys ${randomUUID().slice(0, 6)}`;
  const adminPage = await quietStack.signIn(browser, "admin");
  const admin = adminPage.request;
  const created = await admin.post("/api/categories", {
    headers: writeHeaders(),
    data: { category, counterparty_contains: "nordlys" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const rule = (await created.json()) as { id: string };
  // First, so that rules left by other specs do not take its transactions.
  const moved = await admin.post(`/api/categories/${rule.id}/move`, { headers: writeHeaders(), data: { position: 1 } });
  expect(moved.status()).toBe(200);
  try {
    const request = page.request;
    const { companies, from, to } = await eurGroupLast30Days(request, writeHeaders);

    const res = await request.get(`/api/group/categories?from_date=${from}&to_date=${to}&currency=EUR`);
    expect(res.status(), await res.text()).toBe(200);
    const api = (await res.json()) as CategoriesBody;
    expect(api.reportingCurrency).toBe("EUR");
    expect(api.failedCompanies).toEqual([]);
    expect(api.truncatedCompanies).toEqual([]);

    // Independently: each company's transactions, the rule applied here, per (date, currency) day converted whole
    // and split across the day's categories (the weights of the categories other than ours from the API's lines).
    const mine = new Map<string, Sum>();
    const counts = new Map<string, number>();
    const wholeDays = zero();
    for (const c of companies) {
      await selectCompany(request, c.id, writeHeaders);
      const txs = await all<Tx>(request, `/api/treasury/transactions?from_date=${from}&to_date=${to}`);
      counts.set(c.id, txs.length);
      type Day = { date: string; currency: string; inflow: Decimal; outflow: Decimal; our: Sum };
      const days = new Map<string, Day>();
      for (const t of txs) {
        const date = t.booked_date ?? t.booked_at.slice(0, 10);
        const key = `${date}|${t.currency}`;
        const d = days.get(key) ?? {
          date,
          currency: t.currency,
          inflow: new Decimal(0),
          outflow: new Decimal(0),
          our: zero(),
        };
        days.set(key, d);
        const side = t.direction === "credit" ? "inflow" : "outflow";
        d[side] = d[side].plus(t.amount);
        if (!t.counterparty_name.toLowerCase().includes("nordlys")) continue;
        d.our[side] = d.our[side].plus(t.amount);
        d.our.count += 1;
      }
      const sum = zero();
      for (const d of days.values()) {
        const i = convert(d.inflow.toFixed(2), d.currency, "EUR", d.date);
        const o = convert(d.outflow.toFixed(2), d.currency, "EUR", d.date);
        if (i && o) {
          wholeDays.inflow = wholeDays.inflow.plus(i);
          wholeDays.outflow = wholeDays.outflow.plus(o);
        }
        if (d.our.count === 0) continue;
        sum.count += d.our.count;
        if (!i || !o) continue;
        // The day's categories in name order: ours with our own sums, the others as the API's lines give them.
        const others = api.lines.filter(
          (l) => l.companyId === c.id && l.date === d.date && l.currency === d.currency && l.category !== category,
        );
        const parts = [
          ...others.map((l) => ({
            category: l.category,
            inflow: new Decimal(l.original.inflow),
            outflow: new Decimal(l.original.outflow),
          })),
          { category, inflow: d.our.inflow, outflow: d.our.outflow },
        ].sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
        const at = parts.findIndex((p) => p.category === category);
        const share = (whole: Decimal, k: "inflow" | "outflow") =>
          allocate(
            whole.toFixed(2),
            parts.map((p) => p[k]),
            2,
          )[at] ?? "0";
        sum.inflow = sum.inflow.plus(share(i, "inflow"));
        sum.outflow = sum.outflow.plus(share(o, "outflow"));
      }
      if (sum.count > 0) mine.set(c.id, sum);
    }
    const total = zero();
    for (const s of mine.values()) {
      total.inflow = total.inflow.plus(s.inflow);
      total.outflow = total.outflow.plus(s.outflow);
      total.count += s.count;
    }
    expect(total.count, "the demo data has nordlys transactions in the last 30 days").toBeGreaterThan(0);

    const row = api.categories.find((c) => c.category === category);
    expect(row?.figures).toEqual(fixed(total));
    expect(row?.count).toBe(total.count);
    expect(row?.byCompany.map((c) => c.id).sort()).toEqual([...mine.keys()].sort());
    for (const c of row?.byCompany ?? []) {
      const e = mine.get(c.id) ?? zero();
      expect(c.figures, c.id).toEqual(fixed(e));
      expect(c.count).toBe(e.count);
    }
    // Every transaction of the range is in exactly one category of its company.
    for (const c of api.companies) expect(c.count, c.id).toBe(counts.get(c.id));
    expect(api.categories.reduce((s, c) => s + c.count, 0)).toBe([...counts.values()].reduce((s, n) => s + n, 0));
    // The group total is the sum of the categories.
    const sumOf = (k: keyof Figures) =>
      api.categories.reduce((s, c) => s.plus(c.figures[k]), new Decimal(0)).toFixed(2);
    expect(api.total).toEqual({ inflow: sumOf("inflow"), outflow: sumOf("outflow"), net: sumOf("net") });
    // One figure, one number: the group total is every company's days converted whole, as the cashflow report does.
    expect(api.total).toEqual(fixed(wholeDays));

    // The page's Group scope: the category's row, its company rows and the total.
    await page.setViewportSize({ width: 1360, height: 1300 });
    await page.goto(`/reports/cashflow?scope=group&from=${from}&to=${to}`);
    const shown = page.locator(`[data-testid=group-category][data-category="${category}"]`);
    await expect(shown.getByTestId("group-category-net").locator("[data-amount]")).toHaveAttribute(
      "data-amount",
      total.inflow.minus(total.outflow).toFixed(2),
    );
    await expect(shown.getByTestId("group-category-inflow").locator("[data-amount]")).toHaveAttribute(
      "data-amount",
      total.inflow.toFixed(2),
    );
    await expect(page.locator(`[data-testid=group-category-company][data-category="${category}"]`)).toHaveCount(
      mine.size,
    );
    for (const [id, s] of mine)
      await expect(
        page
          .locator(`[data-testid=group-category-company][data-category="${category}"][data-key="${id}"]`)
          .getByTestId("group-category-net")
          .locator("[data-amount]"),
      ).toHaveAttribute("data-amount", s.inflow.minus(s.outflow).toFixed(2));
    await expect(
      page.getByTestId("group-category-total").getByTestId("group-category-net").locator("[data-amount]"),
    ).toHaveAttribute("data-amount", api.total.net);
    await page.waitForLoadState("networkidle");
    await axe(page, "group-report-categories");
    await page.getByTestId("group-categories").scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, "group-report-categories.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId("group-categories").scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, "group-report-categories-390.png") });

    // The CSV: original and converted figures, rate and rate date per line; its lines add up to the category.
    const parsed = await getCsv(request, `/api/group/categories/export?from_date=${from}&to_date=${to}&currency=EUR`);
    expect(parsed.meta.fields).toEqual([
      "company_id",
      "company",
      "category",
      "date",
      "currency",
      "count",
      "inflow",
      "outflow",
      "net",
      ...CONVERTED_CSV_COLUMNS,
    ]);
    const own = parsed.data.filter((r) => r.category === category);
    expect(own.reduce((s, r) => s + Number(r.count), 0)).toBe(total.count);
    expect(own.reduce((s, r) => s.plus(r.net_converted || "0"), new Decimal(0)).toFixed(2)).toBe(
      total.inflow.minus(total.outflow).toFixed(2),
    );
    expectConvertedRates(parsed.data);

    for (const [url, field] of [
      [`/api/group/categories?currency=XYZ`, "currency"],
      [`/api/group/categories?from_date=2026-13-01`, "from_date"],
      [`/api/group/categories/export?from_date=2026-11-10&to_date=2026-11-01`, "to_date"],
    ] as const) {
      const r = await request.get(url);
      expect(r.status(), url).toBe(400);
      const err = (await r.json()) as { details: { errors: Record<string, string[]> } };
      expect(Object.keys(err.details.errors), url).toEqual([field]);
    }
  } finally {
    await admin.delete(`/api/categories/${rule.id}`, { headers: writeHeaders() });
    await adminPage.context().close();
    await page.context().close();
  }
});
