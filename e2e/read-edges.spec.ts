/**
 * Edges of the read views, as the viewer on the
 * production build, checked against the Treasury API's own figures through
 * the BFF:
 * - /accounts: with 55 extra accounts (added by the admin) the viewer's
 *   second company has two pages (the default company, which the other
 *   specs read, is left alone); the bank filter, the coverage-gap filter
 *   and the balance sort act on every account, paging stays for the
 *   unfiltered view.
 * - /transactions: the text search reads every page of the range (with a
 *   visible progress) before it reports its matches; totals and the CSV
 *   agree with the API's rows.
 * - /reports/forecast: the CSV follows the chosen range.
 * - the transactions filter bar at 1024 and 1360 px.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from "@playwright/test";
import Decimal from "decimal.js";
import { BASE_URL } from "../playwright.config";
import { SCREENSHOTS, storageState } from "./fixtures";
import { manyAccounts } from "./many-accounts";
import { axe, downloadCsv } from "./read-helpers";

test.use({ storageState: storageState("viewer") });

interface BffPage<T> {
  items: T[];
  count: number | null;
  has_next: boolean;
}
interface Account {
  id: string;
  name: string;
  bank_name: string;
  currency: string;
}
interface Tx {
  amount: string;
  currency: string;
  direction: "credit" | "debit";
  counterparty_name: string;
  remittance: string;
  end_to_end_id?: string | null;
}

const ORIGIN = { Origin: BASE_URL };
const EXTRA_ACCOUNTS = 55;
let company: { id: string; name: string };

async function json<T>(api: APIRequestContext, url: string): Promise<T> {
  const res = await api.get(url);
  expect(res.status(), url).toBe(200);
  return (await res.json()) as T;
}

/** The admin adds the extra accounts to the viewer's second company (upserts: a repeat creates nothing). */
test.beforeAll(async () => {
  const viewer = await playwrightRequest.newContext({ baseURL: BASE_URL, storageState: storageState("viewer") });
  const mine = await json<{ items: { id: string; name: string }[] }>(viewer, "/api/treasury/companies");
  await viewer.dispose();
  const target = mine.items[1];
  if (!target) throw new Error("the viewer needs two companies");
  company = target;
  const admin = await playwrightRequest.newContext({ baseURL: BASE_URL, storageState: storageState("admin") });
  const sw = await admin.post("/api/session/company", {
    headers: { ...ORIGIN, "Idempotency-Key": randomUUID() },
    data: { company_id: company.id },
  });
  expect(sw.status()).toBe(200);
  const bodies = manyAccounts(company.id, EXTRA_ACCOUNTS);
  for (let i = 0; i < bodies.length; i += 5) {
    const statuses = await Promise.all(
      bodies.slice(i, i + 5).map(async (data) =>
        (
          await admin.post("/api/treasury/accounts", {
            headers: { ...ORIGIN, "Idempotency-Key": randomUUID() },
            data,
          })
        ).status(),
      ),
    );
    for (const s of statuses) expect([200, 201]).toContain(s);
  }
  await admin.dispose();
});

/** The viewer's page, switched to the company with the extra accounts. */
async function inCompany(page: Page) {
  await page
    .context()
    .addCookies([
      { name: "td_company", value: company.id, domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Lax" },
    ]);
  return page.request;
}

async function shot(page: Page, name: string) {
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: path.join(SCREENSHOTS, `edges-${name}.png`), fullPage: true });
}

const rowIds = (page: Page) =>
  page.getByTestId("account-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-account-id") ?? ""));

/** UTC calendar day `days` from today, as the server computes business dates. */
function utcDay(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

test("accounts: bank, gap filter and balance sort act on every account; the unfiltered view pages", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const api = await inCompany(page);
  const all = (await json<BffPage<Account>>(api, "/api/treasury/accounts?page_size=1000")).items;
  expect(all.length).toBeGreaterThan(50);

  // Unfiltered: the API's pages of 50.
  await page.goto("/accounts");
  await expect(page.getByText(`Bank accounts of ${company.name}`)).toBeVisible();
  await expect(page.getByTestId("account-row")).toHaveCount(50);
  const pager = page.getByRole("navigation", { name: "Pages" });
  await expect(pager).toContainText(`Page 1 of 2 · ${all.length} in all`);
  await expect(page.getByTestId("account-row").first()).toHaveAttribute("data-account-id", all[0]?.id ?? "");
  await pager.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByTestId("account-row")).toHaveCount(all.length - 50);
  expect(await rowIds(page)).toEqual(all.slice(50).map((a) => a.id));
  await expect(page.getByTestId("account-totals")).toHaveAttribute("data-scope", "page");
  await expect(page.getByTestId("account-totals")).toContainText("on this page");
  await shot(page, "accounts-page-2");

  // The bank of the API's last account (page 2): every account of that bank is found, on page 1.
  const bank = all[all.length - 1]?.bank_name ?? "";
  const ofBank = all.filter((a) => a.bank_name === bank).map((a) => a.id);
  await page.getByTestId("filter-bank").selectOption(bank);
  await expect(page).toHaveURL(new RegExp(`bank=${encodeURIComponent(bank)}`));
  expect(ofBank.length).toBeLessThanOrEqual(50);
  await expect(page.getByTestId("account-row")).toHaveCount(ofBank.length);
  expect((await rowIds(page)).sort()).toEqual([...ofBank].sort());
  await expect(page.getByTestId("account-totals")).toHaveAttribute("data-scope", "all");
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page.getByTestId("account-row")).toHaveCount(50);

  // Sort by booked balance, largest first: the API's headline booked balance of every account, decimals compared.
  const booked = await Promise.all(
    all.map(async (a) => {
      const b = await json<BffPage<{ balance: string; as_of_date: string; balance_type: string }>>(
        api,
        `/api/treasury/accounts/${a.id}/balances?from_date=${utcDay(-7)}&to_date=${utcDay(0)}&page_size=1000`,
      );
      // Headline rule: today's interim booked, else the latest closing booked of an ended day.
      const latest =
        b.items.find((x) => x.balance_type === "interim_booked" && x.as_of_date === utcDay(0)) ??
        b.items
          .filter((x) => x.balance_type === "closing_booked" && x.as_of_date < utcDay(0))
          .sort((x, y) => y.as_of_date.localeCompare(x.as_of_date))[0];
      return { id: a.id, balance: latest?.balance ?? null };
    }),
  );
  const withBalance = booked
    .filter((b) => b.balance !== null)
    .sort((x, y) => new Decimal(y.balance ?? 0).cmp(x.balance ?? 0));
  expect(withBalance.length).toBeGreaterThan(0);
  await page.getByRole("button", { name: /Booked/ }).click();
  await expect(page).toHaveURL(/sort=balance/);
  await page.getByRole("button", { name: /Booked/ }).click();
  await expect(page).toHaveURL(/sort=-balance/);
  await expect(page.getByTestId("account-row").first()).toHaveAttribute("data-account-id", withBalance[0]?.id ?? "");
  expect((await rowIds(page)).slice(0, withBalance.length)).toEqual(withBalance.map((b) => b.id));
  // The totals now cover every account: per currency, the API balances summed exactly.
  const nok = withBalance
    .filter((b) => all.find((a) => a.id === b.id)?.currency === "NOK")
    .reduce((s, b) => s.plus(b.balance ?? 0), new Decimal(0));
  const shownNok = await page.getByTestId("account-total-NOK").locator("[data-amount]").getAttribute("data-amount");
  expect(new Decimal(shownNok ?? "0").equals(nok)).toBe(true);
  await shot(page, "accounts-sorted-by-balance");

  // Coverage gaps over the last 7 completed days, every account.
  const gaps = [];
  for (const a of all) {
    const cov = await json<BffPage<{ date: string; completeness: string }>>(
      api,
      `/api/treasury/accounts/${a.id}/coverage?from_date=${utcDay(-7)}&to_date=${utcDay(-1)}&page_size=1000`,
    );
    if (cov.items.filter((c) => c.completeness === "complete").length < 7) gaps.push(a.id);
  }
  await page.getByTestId("filter-coverage").selectOption("gaps");
  await expect(page).toHaveURL(/coverage=gaps/);
  await expect(page.locator("main").getByText(/\d+ in all$/)).toHaveText(new RegExp(`(^|· )${gaps.length} in all$`));
  await expect(page.getByTestId("account-totals")).toContainText(`of the ${gaps.length} matching accounts`);
  await axe(page, "accounts with gaps, all accounts");
  await shot(page, "accounts-gaps");
});

test("transactions: the search reads every page of the range, with progress, and matches the API", async ({ page }) => {
  test.setTimeout(120_000);
  const api = await inCompany(page);
  // A year: several pages of 1,000 (the demo ledger holds 13 months).
  const from = utcDay(-364);
  const to = utcDay(0);
  const rows: Tx[] = [];
  for (let p = 1; ; p++) {
    const pg = await json<BffPage<Tx>>(
      api,
      `/api/treasury/transactions?from_date=${from}&to_date=${to}&page=${p}&page_size=1000`,
    );
    rows.push(...pg.items);
    if (!pg.has_next) break;
  }
  expect(rows.length).toBeGreaterThan(1000);
  // A counterparty with matches beyond the first page of 1,000 (what the list had before the search).
  const match = (q: string) => (t: Tx) =>
    [t.counterparty_name, t.remittance, t.end_to_end_id ?? ""].some((f) => f.toLowerCase().includes(q.toLowerCase()));
  const names = [...new Set(rows.slice(1000).map((t) => t.counterparty_name))].filter((n) => n.length > 3);
  const q =
    names.map((n) => ({ n, later: rows.slice(1000).filter(match(n)).length })).sort((a, b) => b.later - a.later)[0]
      ?.n ?? "";
  const expected = rows.filter(match(q));
  expect(expected.length).toBeGreaterThan(rows.slice(0, 1000).filter(match(q)).length);

  // The second page is held until the progress has been seen (then released), however long that takes.
  let releaseSecondPage = () => {};
  const secondPage = new Promise<void>((resolve) => (releaseSecondPage = resolve));
  await page.route(/\/api\/treasury\/transactions\?.*page=2&/, async (route) => {
    await secondPage;
    await route.continue();
  });
  await page.goto(`/transactions?range=custom&from=${from}&to=${to}`);
  await expect(page.getByTestId("transaction-row").first()).toBeVisible();
  await expect(page.getByTestId("transactions-count")).toContainText(
    `1,000 loaded of ${rows.length.toLocaleString("en")}`,
  );
  await page.getByTestId("filter-text").fill(q);
  await expect(page.getByTestId("search-progress")).toBeVisible();
  await expect(page.getByTestId("transactions-status")).toHaveAttribute("data-phase", "loading");
  await page.screenshot({ path: path.join(SCREENSHOTS, "edges-transactions-search-progress.png") });
  await axe(page, "transactions search in progress");
  releaseSecondPage();
  await expect(page.getByTestId("transactions-status")).toHaveAttribute("data-phase", "complete", { timeout: 60_000 });
  await expect(page.getByTestId("transactions-count")).toHaveText(
    `${expected.length.toLocaleString("en")} matching “${q}” among all ` +
      `${rows.length.toLocaleString("en")} transactions of the range`,
  );

  // Net per currency of the matches equals the API's rows summed with decimal.js.
  const net = new Map<string, Decimal>();
  for (const t of expected)
    net.set(
      t.currency,
      (net.get(t.currency) ?? new Decimal(0)).plus(t.direction === "credit" ? t.amount : new Decimal(t.amount).neg()),
    );
  for (const [cur, sum] of net) {
    const shown = await page
      .getByTestId("transaction-totals")
      .locator(`[data-currency=${cur}] [data-amount]`)
      .nth(2)
      .getAttribute("data-amount");
    expect(new Decimal(shown ?? "0").equals(sum), cur).toBe(true);
  }
  await shot(page, "transactions-search-complete");
  // The export of the same filter holds the same rows.
  const csv = await downloadCsv(page, page.getByRole("button", { name: "Export CSV" }));
  expect(csv.errors).toEqual([]);
  expect(csv.data.length).toBe(expected.length);
});

test("forecast: the CSV holds the chosen range's actual positions and the forecast, as shown", async ({ page }) => {
  const api = page.request;
  const forecast = (
    await json<BffPage<{ date: string; currency: string; amount: string }>>(
      api,
      "/api/treasury/reporting/forecast?page_size=1000",
    )
  ).items;
  expect(forecast.length).toBeGreaterThan(0);
  const currencies = new Set(forecast.map((f) => f.currency));
  const counts: number[] = [];
  for (const range of ["90d", "30d"]) {
    await page.goto(`/reports/forecast?range=${range}`);
    await expect(page.getByTestId("chart").first()).toBeVisible();
    const from = (await page.getByTestId("range-from").getAttribute("data-value")) ?? "";
    const to = (await page.getByTestId("range-to").getAttribute("data-value")) ?? "";
    const positions = (
      await json<BffPage<{ date: string; currency: string; balance: string }>>(
        api,
        `/api/treasury/reporting/positions/daily?from_date=${from}&to_date=${to}&page_size=1000`,
      )
    ).items;
    const csv = await downloadCsv(page, page.getByRole("button", { name: "Export CSV" }));
    expect(csv.errors).toEqual([]);
    expect(csv.meta.fields).toEqual([
      "date",
      "currency",
      "kind",
      "amount",
      "opening",
      "opening_date",
      "expected_flows",
      "outgoing_batches",
      "outgoing_today",
    ]);
    const got = csv.data.map((r) => `${r.kind}|${r.date}|${r.currency}|${r.amount}`).sort();
    const want = [
      ...positions.filter((p) => currencies.has(p.currency)).map((p) => `actual|${p.date}|${p.currency}|${p.balance}`),
      ...forecast.map((f) => `forecast|${f.date}|${f.currency}|${f.amount}`),
    ].sort();
    expect(got).toEqual(want);
    const actual = csv.data.filter((r) => r.kind === "actual");
    expect(actual.every((r) => (r.date ?? "") >= from && (r.date ?? "") <= to)).toBe(true);
    counts.push(actual.length);
  }
  expect(counts[0]).toBeGreaterThan(counts[1] ?? 0);
});

for (const width of [1024, 1360]) {
  test(`transactions filter bar at ${width} px: rows wrap as units, nothing overflows`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/transactions");
    const bar = page.getByTestId("transaction-filters");
    await expect(bar).toBeVisible();
    await expect(page.getByTestId("transaction-row").first()).toBeVisible();
    // Nothing sticks out of the bar or the page.
    expect(await bar.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const box = async (testId: string) =>
      (await page.getByTestId(testId).boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };
    // From and To stay together; the selects and the search sit on one line below the range.
    const [fromBox, toBox, dir, cur, acc, text] = await Promise.all(
      ["range-from", "range-to", "filter-direction", "filter-currency", "filter-account", "filter-text"].map(box),
    );
    expect(Math.abs((fromBox?.y ?? 0) - (toBox?.y ?? 1))).toBeLessThan(2);
    for (const b of [cur, acc, text]) expect(Math.abs((b?.y ?? 0) - (dir?.y ?? 1))).toBeLessThan(2);
    expect(dir?.y ?? 0).toBeGreaterThan((fromBox?.y ?? 0) + (fromBox?.height ?? 0));
    // The export sits at the right end of the status line above the list.
    const exportBox = (await page.getByRole("button", { name: "Export CSV" }).boundingBox()) ?? {
      x: 0,
      y: 0,
      width: 0,
      height: 0,
    };
    const barBox = (await bar.boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };
    expect(Math.abs(exportBox.x + exportBox.width - (barBox.x + barBox.width))).toBeLessThan(2);
    await page.screenshot({
      path: path.join(SCREENSHOTS, `edges-transactions-${width}.png`),
      clip: { x: 0, y: 0, width, height: 520 },
    });
  });
}
