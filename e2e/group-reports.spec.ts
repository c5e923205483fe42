/**
 * Group reports: the group cashflow total equals each company's API cashflow
 * rows converted here independently with the seeded demo rates (rate of the
 * row's date or the latest publishing day up to 7 days before, cross via EUR,
 * inflow and outflow each rounded half-even to 2 decimals, net = converted
 * inflow − converted outflow); the Group scope of the report page shows that
 * total and a row per company; the CSV carries the original figures, the
 * rate, its date and the export time with an offset. A user limited to two
 * companies gets those two only. Screenshots at desktop and 390 px width go to
 * e2e/screenshots/group-report-*.png.
 *
 * The second approver's figures are compared on a quiet stack (e2e/quiet-stack.ts): today's flows and balances of
 * the shared server's demo companies change whenever another spec's payment settles, between the page's read, the
 * CSV's and the test's own.
 */
import path from "node:path";

import Decimal from "decimal.js";
import { SCREENSHOTS, storageState } from "./fixtures";
import {
  CONVERTED_CSV_COLUMNS,
  eurGroupLast30Days,
  expectConvertedRates,
  expectedCashflowByCompany as expectedCashflow,
  getCsv,
  type Company,
} from "./group-figures";
import { expect, test } from "./quiet-stack";
import { axe } from "./read-helpers";

interface Figures {
  inflow: string;
  outflow: string;
  net: string;
}
interface GroupReportBody {
  reportingCurrency: string;
  total: Figures;
  companies: { id: string; name: string; figures: Figures }[];
  failedCompanies: { name: string }[];
}

// Another user than the group overview spec's, whose reporting currency that spec switches.
test.describe("as a second approver with every company", () => {
  test("the group cashflow total is the per-company API figures converted with the demo rates", async ({
    browser,
    quietStack,
  }) => {
    test.setTimeout(180_000);
    const writeHeaders = quietStack.writeHeaders;
    const page = await quietStack.signIn(browser, "approver2");
    const request = page.request;
    const { companies, from, to } = await eurGroupLast30Days(request, writeHeaders);
    const res = await request.get(`/api/group/reports/cashflow?from_date=${from}&to_date=${to}&currency=EUR`);
    expect(res.status(), await res.text()).toBe(200);
    const api = (await res.json()) as GroupReportBody;
    expect(api.reportingCurrency).toBe("EUR");
    expect(api.failedCompanies).toEqual([]);
    const expected = await expectedCashflow(request, companies, from, to, "EUR", writeHeaders);
    let inflow = new Decimal(0);
    let outflow = new Decimal(0);
    for (const c of api.companies) {
      const e = expected.get(c.id);
      expect(e, c.name).toBeDefined();
      expect(c.figures.inflow).toBe(e?.inflow.toFixed(2));
      expect(c.figures.outflow).toBe(e?.outflow.toFixed(2));
      expect(c.figures.net).toBe(e?.inflow.minus(e.outflow).toFixed(2));
      inflow = inflow.plus(e?.inflow ?? 0);
      outflow = outflow.plus(e?.outflow ?? 0);
    }
    expect(api.companies.map((c) => c.id).sort()).toEqual(companies.map((c) => c.id).sort());
    expect(api.total).toEqual({
      inflow: inflow.toFixed(2),
      outflow: outflow.toFixed(2),
      net: inflow.minus(outflow).toFixed(2),
    });

    // The page's Group scope shows the same total and one row per company.
    await page.setViewportSize({ width: 1360, height: 1300 });
    await page.goto("/reports/cashflow");
    await page.getByTestId("report-scope-group").click();
    await expect(page).toHaveURL(/scope=group/);
    await expect(page.getByTestId("group-report-total-net").locator("[data-amount]")).toHaveAttribute(
      "data-amount",
      inflow.minus(outflow).toFixed(2),
    );
    await expect(page.getByTestId("group-report-total-net").locator("[data-amount]")).toHaveAttribute(
      "data-currency",
      "EUR",
    );
    await expect(page.getByTestId("group-report-company")).toHaveCount(companies.length);
    await expect(page.getByTestId("group-report-rates")).toContainText(/reference rates of .*20\d\d/);
    // The tabs keep the scope.
    await expect(page.getByRole("link", { name: "Positions" })).toHaveAttribute("href", /scope=group/);
    await page.waitForLoadState("networkidle");
    await axe(page, "group-report");
    await page.screenshot({ path: path.join(SCREENSHOTS, "group-report-cashflow.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(SCREENSHOTS, "group-report-cashflow-390.png"), fullPage: true });

    await page.setViewportSize({ width: 1360, height: 1300 });
    await page.getByRole("link", { name: "Positions" }).click();
    await expect(page.getByTestId("group-report-company")).toHaveCount(companies.length);
    await page.screenshot({ path: path.join(SCREENSHOTS, "group-report-positions.png"), fullPage: true });
    await page.getByRole("link", { name: "Forecast" }).click();
    await expect(page.getByTestId("group-report-total-amount")).toBeVisible();
    await page.screenshot({ path: path.join(SCREENSHOTS, "group-report-forecast.png"), fullPage: true });

    // The CSV: original figures, the rate and its date, converted figures, the export time with an offset.
    const parsed = await getCsv(
      request,
      `/api/group/reports/cashflow/export?from_date=${from}&to_date=${to}&currency=EUR`,
    );
    expect(parsed.meta.fields).toEqual([
      "company_id",
      "company",
      "date",
      "currency",
      "inflow",
      "outflow",
      "net",
      ...CONVERTED_CSV_COLUMNS,
    ]);
    expect(parsed.data.length).toBeGreaterThan(0);
    expectConvertedRates(parsed.data);
    const csvNet = parsed.data
      .filter((r) => r.rate)
      .reduce((sum, r) => sum.plus(r.net_converted ?? "0"), new Decimal(0));
    expect(csvNet.toFixed(2)).toBe(inflow.minus(outflow).toFixed(2));

    // The group position's CSV: the converted balances add up to the position's total; each carries rate and date.
    const pos = (await (await request.get("/api/group/position?currency=EUR")).json()) as {
      total: { converted: string };
    };
    const posRows = (await getCsv(request, "/api/group/position/export?currency=EUR")).data;
    expect(posRows.length).toBeGreaterThan(0);
    const posSum = posRows.reduce((s, r) => s.plus(r.converted || "0"), new Decimal(0));
    expect(posSum.toFixed(2)).toBe(pos.total.converted);
    for (const r of posRows.filter((r) => r.converted && r.currency !== "EUR"))
      expect(r.rate_date, r.account).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // The overview offers the koncern grouping from the spec's koncern structure.
    await page.setViewportSize({ width: 1360, height: 1300 });
    await page.goto("/?by=koncern");
    await expect(page.getByTestId("group-by-koncern")).toHaveAttribute("data-state", "active");
    await expect(page.getByTestId("group-row-koncern").first()).toBeVisible();
    await page.screenshot({ path: path.join(SCREENSHOTS, "group-overview-koncern.png"), fullPage: true });
    await page.context().close();
  });
});

test.describe("as the viewer, limited to two companies", () => {
  test.use({ storageState: storageState("viewer") });

  test("gets only those two companies; bad input is refused naming the field", async ({ page }) => {
    const request = page.request;
    const companies = ((await (await request.get("/api/treasury/companies")).json()) as { items: Company[] }).items;
    expect(companies).toHaveLength(2);
    const res = await request.get("/api/group/reports/positions");
    expect(res.status(), await res.text()).toBe(200);
    const body = (await res.json()) as GroupReportBody;
    expect(body.companies.map((c) => c.id).sort()).toEqual(companies.map((c) => c.id).sort());

    for (const [url, field] of [
      ["/api/group/reports/balances", "kind"],
      ["/api/group/reports/cashflow?from_date=2026-13-01", "from_date"],
      ["/api/group/reports/cashflow?from_date=2026-11-10&to_date=2026-11-01", "to_date"],
      ["/api/group/reports/cashflow?currency=XYZ", "currency"],
      ["/api/group/reports/cashflow/export?currency=nok", "currency"],
    ] as const) {
      const r = await request.get(url);
      expect(r.status(), url).toBe(400);
      const err = (await r.json()) as { details: { errors: Record<string, string[]> } };
      expect(Object.keys(err.details.errors), url).toEqual([field]);
    }
  });
});
