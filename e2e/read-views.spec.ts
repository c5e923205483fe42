/**
 * Read views as the viewer, on the production build: open each
 * view, apply filters, check figures against the numbers the Treasury API
 * returns through the BFF (summed here with decimal.js), export CSV and
 * parse it, follow overview links; an axe scan of every view (no serious or
 * critical violations) and a screenshot of every view in e2e/screenshots.
 *
 * The views whose figures are compared with the API's (accounts, transactions, the reports) are read on a quiet
 * stack (e2e/quiet-stack.ts): on the shared server other specs' payments settle into the viewer's first company
 * today, between the page's read, the CSV's and the test's own.
 */
import type { Browser, Page } from "@playwright/test";
import Decimal from "decimal.js";
import path from "node:path";
import { SCREENSHOTS, storageState } from "./fixtures";
import { expect, test, type QuietStack } from "./quiet-stack";
import { axe, downloadCsv } from "./read-helpers";

test.use({ storageState: storageState("viewer") });

interface BffPage<T> {
  items: T[];
  count: number | null;
  has_next: boolean;
}
interface Tx {
  amount: string;
  currency: string;
  direction: "credit" | "debit";
}

/** The viewer's page on the quiet stack. */
const viewerOn = (browser: Browser, stack: QuietStack) => stack.signIn(browser, "viewer");

async function shot(page: Page, name: string) {
  // Charts load lazily; let them draw before the picture.
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: path.join(SCREENSHOTS, `read-${name}.png`), fullPage: true });
}

test("overview: positions per currency, counts link onward", async ({ page }) => {
  await page.setViewportSize({ width: 1360, height: 1400 });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  const cards = page.locator("[data-testid^=position-balance-]");
  await expect(cards.first()).toBeVisible();
  await expect(page.getByTestId("chart").first()).toBeVisible();
  await axe(page, "overview");
  await shot(page, "overview");
  await page.getByTestId("count-coverage").click();
  await expect(page).toHaveURL(/\/accounts\?coverage=gaps/);
});

test("accounts: balances match the API, currency filter in the URL, sorting", async ({ browser, quietStack }) => {
  const page = await viewerOn(browser, quietStack);
  const request = page.request;
  await page.goto("/accounts");
  const rows = page.getByTestId("account-row");
  await expect(rows.first()).toBeVisible();
  await axe(page, "accounts");
  await shot(page, "accounts");
  // The booked balance shown equals the API's headline booked balance of that account.
  const id = await rows.first().getAttribute("data-account-id");
  const shown = await rows.first().locator("[data-amount]").first().getAttribute("data-amount");
  const bal = (await (await request.get(`/api/treasury/accounts/${id}/balances?page_size=1000`)).json()) as BffPage<{
    balance: string;
    as_of_date: string;
    balance_type: string;
  }>;
  // Headline rule: today's interim booked, else the latest closing booked of an ended day.
  const today = new Date().toISOString().slice(0, 10);
  const booked =
    bal.items.find((b) => b.balance_type === "interim_booked" && b.as_of_date === today) ??
    bal.items
      .filter((b) => b.balance_type === "closing_booked" && b.as_of_date < today)
      .sort((a, b) => (a.as_of_date < b.as_of_date ? 1 : -1))[0];
  expect(shown).toBe(booked?.balance);

  const currency = (await rows.first().locator("td").nth(3).textContent())?.trim() ?? "";
  await page.getByTestId("filter-currency").selectOption(currency);
  await expect(page).toHaveURL(new RegExp(`currency=${currency}`));
  await expect(rows.first()).toBeVisible();
  // The filter re-reads on the server; wait until no row of another currency is left.
  await expect(rows.locator("td:nth-child(4)").filter({ hasNotText: currency })).toHaveCount(0);

  await page.getByRole("button", { name: /Booked/ }).click();
  await expect(page).toHaveURL(/sort=balance/);
});

test("account detail: intraday chart, coverage calendar, transactions", async ({ page }) => {
  await page.setViewportSize({ width: 1360, height: 2000 });
  await page.goto("/accounts");
  await page.getByTestId("account-row").first().getByRole("link").click();
  await expect(page.getByTestId("header-booked")).toBeVisible();
  await expect(page.getByTestId("coverage-calendar").locator("[data-state]")).toHaveCount(90);
  await expect(page.getByTestId("drawn-points")).toBeVisible();
  await expect(page.getByTestId("transaction-row").first()).toBeVisible();
  await axe(page, "account");
  await shot(page, "account-detail");
});

test("transactions: filters, totals against the API, drawer, CSV export", async ({ browser, quietStack }) => {
  const page = await viewerOn(browser, quietStack);
  const request = page.request;
  await page.goto("/transactions?range=30d&direction=debit");
  await expect(page.getByTestId("transaction-row").first()).toBeVisible();
  // Every shown amount is a debit (negative).
  for (const a of await page
    .locator("[data-testid=transaction-row] [data-amount]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-amount"))))
    expect(a?.startsWith("-")).toBe(true);
  await axe(page, "transactions");
  await shot(page, "transactions");

  // Totals per currency equal the API's rows summed with decimal.js.
  const url = new URL(page.url());
  const from = (await page.getByTestId("range-from").getAttribute("data-value")) ?? "";
  const to = (await page.getByTestId("range-to").getAttribute("data-value")) ?? "";
  expect(url.searchParams.get("direction")).toBe("debit");
  // Every page of the API's rows, however many there are.
  const sums = new Map<string, Decimal>();
  let rowCount = 0;
  for (let n = 1, more = true; more; n++) {
    expect(n, "more than 100 pages of debits").toBeLessThanOrEqual(100);
    const res = await request.get(
      `/api/treasury/transactions?from_date=${from}&to_date=${to}&direction=debit&page_size=1000&page=${n}`,
    );
    expect(res.status()).toBe(200);
    const api = (await res.json()) as BffPage<Tx>;
    for (const t of api.items) sums.set(t.currency, (sums.get(t.currency) ?? new Decimal(0)).plus(t.amount));
    rowCount += api.items.length;
    more = api.has_next;
  }
  expect(sums.size).toBeGreaterThan(0);
  for (const [cur, sum] of sums) {
    // The page's total (shown as a debit, so compared without its sign), once the page has drawn it.
    const total = page.getByTestId("transaction-totals").locator(`[data-currency=${cur}] [data-amount]`).nth(1);
    await expect
      .poll(async () => new Decimal((await total.getAttribute("data-amount")) ?? "0").abs().toFixed(2), {
        message: cur,
      })
      .toBe(sum.toFixed(2));
  }

  await page.getByTestId("transaction-row").first().click();
  await expect(page.getByTestId("transaction-drawer")).toBeVisible();
  await axe(page, "transaction drawer");
  await shot(page, "transaction-drawer");
  await page.keyboard.press("Escape");

  const csv = await downloadCsv(page, page.getByRole("button", { name: "Export CSV" }));
  expect(csv.errors).toEqual([]);
  // The export holds exactly the API's rows.
  expect(csv.data.length).toBe(rowCount);
  for (const r of csv.data) expect(r.direction).toBe("debit");
  await page.context().close();
});

for (const report of ["cashflow", "positions", "forecast"] as const) {
  test(`report ${report}: presets, chart and table per currency, CSV`, async ({ browser, quietStack }) => {
    test.setTimeout(150_000);
    const page = await viewerOn(browser, quietStack);
    await page.setViewportSize({ width: 1360, height: 1800 });
    await page.goto(`/reports/${report}`);
    await expect(page.locator("[data-testid^=report-]").first()).toBeVisible();
    await expect(page.getByTestId("chart").first()).toBeVisible();
    if (report !== "forecast") {
      await page.getByRole("button", { name: "Last 90 days" }).click();
      await expect(page).toHaveURL(/range=90d/);
      await expect(page.getByRole("button", { name: "Last 90 days" })).toHaveAttribute("aria-pressed", "true");
    }
    await axe(page, report);
    await shot(page, `report-${report}`);
    const csv = await downloadCsv(page, page.getByRole("button", { name: "Export CSV" }));
    expect(csv.errors).toEqual([]);
    expect(csv.data.length).toBeGreaterThan(0);
    if (report === "cashflow") {
      // The net total shown for a currency equals the CSV's net column summed exactly.
      const cur = csv.data[0]?.currency ?? "";
      const sum = csv.data.filter((r) => r.currency === cur).reduce((s, r) => s.plus(r.net ?? "0"), new Decimal(0));
      const shown = await page.getByTestId(`total-net-${cur}`).locator("[data-amount]").getAttribute("data-amount");
      expect(new Decimal(shown ?? "0").toFixed()).toBe(sum.toFixed());
    }
    await page.context().close();
  });
}

test("organization: companies, koncern breakdown with totals", async ({ page }) => {
  await page.goto("/organization");
  await expect(page.getByRole("table", { name: "Companies" })).toBeVisible();
  await axe(page, "organization");
  await shot(page, "organization");
  const k = page.getByRole("table", { name: "Corporate groups" }).getByRole("link").first();
  await k.click();
  await expect(page.getByTestId("breakdown-row").first()).toBeVisible();
  await axe(page, "koncern");
  await shot(page, "koncern");
});
