/**
 * A company whose API calls fail is named, the others are shown. A dashboard of its own
 * (e2e/second-dashboard.ts) talks to the quiet server's real treasury-api (e2e/quiet-stack.ts: demo data nothing writes
 * to, so the figures compared cannot move between the page's read and the test's own) through
 * e2e/failing-upstream.ts, a loopback proxy that answers every read carrying one company's `X-Company-ID` with 503,
 * and the all-companies `/accounts/summaries` read with 503 too (it spans the failing company). The dashboard then
 * reads the other companies one by one.
 *
 * Asserted, for the treasurer (every company): the group overview names the failing company in a visible notice,
 * its total says it excludes that company, and each other company's figure and the total equal that company's API
 * figures converted here independently (e2e/group-figures.ts); the group cashflow report and its by-category table
 * do the same, and the CSV exports name the failing company in `X-Failed-Companies`. Screenshots go to
 * /tmp/shots-group/.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import Decimal from "decimal.js";
import { startFailingUpstream, type FailingUpstream } from "./failing-upstream";
import { demoApiToken } from "./demo-api";
import { USERS } from "./fixtures";
import {
  addDays,
  expectedCashflowByCompany,
  expectedPositionByCompany,
  selectCompany,
  setReportingCurrency,
  type Company,
} from "./group-figures";
import { QUIET_API_URL, startQuietDashboard } from "./quiet-stack";
import { signInOn, type SecondDashboard } from "./second-dashboard";

const SHOTS = "/tmp/shots-group";

let proxy: FailingUpstream;
let dashboard: SecondDashboard | undefined;
let failing: Company;
let others: Company[] = [];
let page: Page;

const headers = () => ({ Origin: dashboard?.base ?? "", "Idempotency-Key": crypto.randomUUID() });

test.describe.configure({ mode: "serial", timeout: 240_000 });

/** The first page of a Form B list at `base` + `path` in `companyId`: its `next` link. */
async function apiList(base: string, path: string, companyId: string): Promise<{ next: string | null }> {
  const res = await fetch(`${base}${path}`, {
    headers: { authorization: `Bearer ${await demoApiToken(base)}`, "X-Company-ID": companyId },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { next: string | null };
}

/** The companies of the demo OAuth client, read from the API directly (before the dashboard reads anything). */
async function apiCompanies(base: string): Promise<Company[]> {
  const res = await fetch(`${base}/public/companies?page_size=100`, {
    headers: { authorization: `Bearer ${await demoApiToken(base)}` },
  });
  expect(res.status).toBe(200);
  // Form B: the pagination envelope.
  return ((await res.json()) as { results: Company[] }).results;
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  mkdirSync(SHOTS, { recursive: true });
  const companies = await apiCompanies(QUIET_API_URL);
  expect(companies.length).toBeGreaterThan(2);
  // Not the first company: that is the session's default selection, whose own pages would fail too.
  failing = companies[companies.length - 1] as Company;
  others = companies.filter((c) => c.id !== failing.id);
  // Free ports, so that copies of this spec (--repeat-each, two workers) run side by side.
  proxy = await startFailingUpstream(QUIET_API_URL);
  proxy.failCompany(failing.id);
  // Through the proxy, a list's next page is the proxy's: a link to the API behind it would be refused by the
  // dashboard's client, and every company with more than one page of a read (500 transactions) would be reported
  // as failed too.
  const paged = await apiList(proxy.url, `/public/transactions?page_size=1`, others[0]?.id ?? "");
  expect(paged.next?.startsWith(`${proxy.url}/public/transactions?`), `next: ${paged.next}`).toBe(true);
  dashboard = await startQuietDashboard(`${proxy.url}/public`);
  page = await signInOn(browser, dashboard.base, USERS.treasurer.email);
});

// A failing test keeps what the second dashboard logged (retries, upstream errors) in its output folder.
test.afterEach(async () => {
  const testInfo = test.info();
  if (testInfo.status === testInfo.expectedStatus || !dashboard) return;
  const file = testInfo.outputPath("second-dashboard.log");
  writeFileSync(file, dashboard.log());
  await testInfo.attach("second-dashboard.log", { path: file, contentType: "text/plain" });
});

test.afterAll(async () => {
  await dashboard?.stop();
  await proxy?.close();
});

test("the group overview names the failing company and shows the others' API figures", async () => {
  const request = page.request;
  await setReportingCurrency(request, "EUR", headers);
  const body = (await (await request.get("/api/group/position")).json()) as {
    today: string;
    total: { converted: string };
    byCompany: { key: string; converted: string }[];
    failedCompanies: { id: string; name: string }[];
  };
  expect(body.failedCompanies.map((f) => f.name)).toEqual([failing.name]);
  expect(body.byCompany.map((r) => r.key).sort()).toEqual(others.map((c) => c.id).sort());
  // The dashboard did ask for the failing company's data (and the all-companies read) and got 503s.
  expect(proxy.failed().some((f) => f.endsWith("/accounts/summaries"))).toBe(true);
  expect(proxy.failed().some((f) => !f.endsWith("/accounts/summaries"))).toBe(true);

  const expected = await expectedPositionByCompany(request, others, body.today, "EUR", headers);
  const total = [...expected.values()].reduce((s, v) => s.plus(v), new Decimal(0));
  expect(body.total.converted).toBe(total.toFixed(2));
  await selectCompany(request, others[0]?.id ?? "", headers);

  await page.setViewportSize({ width: 1360, height: 1100 });
  await page.goto("/");
  const notice = page.getByTestId("group-failed");
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(failing.name);
  await expect(page.getByTestId("group-total-excludes")).toHaveText(`Excludes ${failing.name} (could not be read)`);
  await expect(page.getByTestId("group-total").locator("[data-amount]")).toHaveAttribute(
    "data-amount",
    total.toFixed(2),
  );
  const rows = page.getByTestId("group-row-company");
  await expect(rows).toHaveCount(others.length);
  for (const c of others) {
    const row = page.locator(`[data-testid=group-row-company][data-key="${c.id}"]`);
    await expect(row).toContainText(c.name);
    await expect(row.getByTestId("group-row-amount").locator("[data-amount]")).toHaveAttribute(
      "data-amount",
      expected.get(c.id)?.toFixed(2) ?? "missing",
    );
  }
  await expect(page.locator(`[data-testid=group-row-company][data-key="${failing.id}"]`)).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/group-overview-failing.png`, fullPage: true });

  const csv = await request.get("/api/group/position/export?currency=EUR");
  expect(csv.status()).toBe(200);
  expect(decodeURIComponent(csv.headers()["x-failed-companies"] ?? "")).toBe(failing.name);
});

test("the group cashflow report and its categories name the failing company and show the others", async () => {
  const request = page.request;
  const to = new Date().toISOString().slice(0, 10);
  const from = addDays(to, -29);
  const res = await request.get(`/api/group/reports/cashflow?from_date=${from}&to_date=${to}&currency=EUR`);
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as {
    total: { net: string };
    companies: { id: string; figures: { inflow: string; outflow: string; net: string } }[];
    failedCompanies: { name: string }[];
  };
  expect(body.failedCompanies.map((f) => f.name)).toEqual([failing.name]);
  expect(body.companies.map((c) => c.id).sort()).toEqual(others.map((c) => c.id).sort());
  const expected = await expectedCashflowByCompany(request, others, from, to, "EUR", headers);
  let net = new Decimal(0);
  for (const c of body.companies) {
    const e = expected.get(c.id);
    expect(c.figures.inflow).toBe(e?.inflow.toFixed(2));
    expect(c.figures.outflow).toBe(e?.outflow.toFixed(2));
    net = net.plus(e?.inflow.minus(e.outflow) ?? 0);
  }
  expect(body.total.net).toBe(net.toFixed(2));
  await selectCompany(request, others[0]?.id ?? "", headers);

  const cats = await request.get(`/api/group/categories?from_date=${from}&to_date=${to}&currency=EUR`);
  expect(cats.status(), await cats.text()).toBe(200);
  const catBody = (await cats.json()) as {
    companies: { id: string }[];
    failedCompanies: { name: string; message: string }[];
  };
  expect(
    catBody.failedCompanies.map((f) => f.name),
    JSON.stringify(catBody.failedCompanies),
  ).toEqual([failing.name]);
  expect(catBody.companies.map((c) => c.id).sort()).toEqual(others.map((c) => c.id).sort());

  await page.setViewportSize({ width: 1360, height: 1300 });
  await page.goto(`/reports/cashflow?scope=group&from=${from}&to=${to}`);
  await expect(page.getByTestId("group-report-failed")).toContainText(failing.name);
  await expect(page.getByTestId("group-report-total-excludes")).toHaveText(
    `Excludes ${failing.name} (could not be read)`,
  );
  await expect(page.getByTestId("group-report-total-net").locator("[data-amount]")).toHaveAttribute(
    "data-amount",
    net.toFixed(2),
  );
  await expect(page.getByTestId("group-report-company")).toHaveCount(others.length);
  await expect(page.getByTestId("group-categories-failed")).toContainText(failing.name);
  await page.screenshot({ path: `${SHOTS}/group-report-failing.png`, fullPage: true });

  const csv = await request.get(`/api/group/reports/cashflow/export?from_date=${from}&to_date=${to}&currency=EUR`);
  expect(csv.status()).toBe(200);
  expect(decodeURIComponent(csv.headers()["x-failed-companies"] ?? "")).toBe(failing.name);
  expect(await csv.text()).not.toContain(failing.id);
  const catCsv = await request.get(`/api/group/categories/export?from_date=${from}&to_date=${to}&currency=EUR`);
  expect(catCsv.status()).toBe(200);
  expect(decodeURIComponent(catCsv.headers()["x-failed-companies"] ?? "")).toBe(failing.name);
});
