/**
 * Group overview (the home page of a user with more than one company): the
 * total equals the per-company API figures converted with the seeded demo
 * rates, computed here independently with decimal.js (headline balance:
 * today's interim booked, else the latest closing booked of an ended day,
 * over the last 7 days; rate of the balance's day or the latest earlier one
 * within 7 days, cross via EUR, rounded half-even to 2 decimals per account);
 * switching the reporting currency changes every figure; a user limited to
 * two companies sees only those. Screenshots at desktop and 390 px width go
 * to e2e/screenshots/group-*.png.
 *
 * The treasurer's figures are compared on a quiet stack (e2e/quiet-stack.ts): today's balances of the shared server's
 * demo companies change whenever another spec's payment settles, between the page's read and the test's own.
 */
import path from "node:path";
import Decimal from "decimal.js";
import { SCREENSHOTS, storageState, writeHeaders } from "./fixtures";
import { companiesOf, expectedPositionByCompany as expectedByCompany, setReportingCurrency } from "./group-figures";
import { expect, test } from "./quiet-stack";
import { axe } from "./read-helpers";

interface GroupPositionBody {
  reportingCurrency: string;
  today: string;
  total: { converted: string };
  byCompany: { key: string; label: string; converted: string }[];
  companyCount: number;
  failedCompanies: { name: string }[];
}

test.describe("as a treasurer with every company", () => {
  test(
    "the total is the per-company API figures converted with the demo rates; switching currency changes every " +
      "figure",
    async ({ browser, quietStack }) => {
      test.setTimeout(180_000);
      const headers = quietStack.writeHeaders;
      const page = await quietStack.signIn(browser, "treasurer");
      const request = page.request;
      await setReportingCurrency(request, "EUR", headers);
      const companies = await companiesOf(request);
      expect(companies.length).toBeGreaterThan(1);

      const apiEur = (await (await request.get("/api/group/position")).json()) as GroupPositionBody;
      expect(apiEur.reportingCurrency).toBe("EUR");
      expect(apiEur.failedCompanies).toEqual([]);
      const expectedEur = await expectedByCompany(request, companies, apiEur.today, "EUR", headers);
      const totalEur = [...expectedEur.values()].reduce((s, v) => s.plus(v), new Decimal(0));
      expect(apiEur.total.converted).toBe(totalEur.toFixed(2));
      for (const row of apiEur.byCompany) expect(row.converted).toBe(expectedEur.get(row.key)?.toFixed(2));

      await page.setViewportSize({ width: 1360, height: 1300 });
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Overview");
      const total = page.getByTestId("group-total").locator("[data-amount]");
      await expect(total).toHaveAttribute("data-amount", totalEur.toFixed(2));
      await expect(total).toHaveAttribute("data-currency", "EUR");
      await expect(page.getByTestId("group-basis")).toContainText(/Closing booked|Interim booked/);
      const companyRows = page.getByTestId("group-row-company");
      await expect(companyRows).toHaveCount(apiEur.byCompany.length);
      for (const row of apiEur.byCompany) {
        const shown = page.locator(`[data-testid=group-row-company][data-key="${row.key}"]`);
        await expect(shown).toContainText(row.label);
        await expect(shown.getByTestId("group-row-amount").locator("[data-amount]")).toHaveAttribute(
          "data-amount",
          row.converted,
        );
      }
      await page.waitForLoadState("networkidle");
      await axe(page, "group-overview");
      await page.screenshot({ path: path.join(SCREENSHOTS, "group-overview.png"), fullPage: true });

      // Drill down to accounts: the breakdown is in the URL, converted figures show their rate date on hover.
      await page.getByTestId("group-by-account").click();
      await expect(page).toHaveURL(/by=account/);
      const accountAmounts = page.getByTestId("group-row-account").getByTestId("group-row-amount");
      await expect(accountAmounts.first()).toBeVisible();
      const titles = await accountAmounts.evaluateAll((cells) => cells.map((c) => c.getAttribute("title") ?? ""));
      expect(titles.some((t) => / = [0-9.]+ EUR · rate of .*20\d\d/.test(t))).toBe(true);
      await page.screenshot({ path: path.join(SCREENSHOTS, "group-overview-accounts.png"), fullPage: true });

      // Switch to NOK in the header: every figure changes and the total is the NOK conversion.
      await page.getByTestId("group-by-company").click();
      const amounts = page.locator(
        "main [data-testid=group-row-amount] [data-amount], [data-testid=group-total] [data-amount]",
      );
      const before = await amounts.evaluateAll((els) => els.map((e) => e.getAttribute("data-amount")));
      await page.getByTestId("reporting-currency").click();
      await page.getByTestId("reporting-currency-NOK").click();
      await expect(total).toHaveAttribute("data-currency", "NOK");
      await expect(page.getByTestId("reporting-currency-value")).toHaveText("NOK");
      const expectedNok = await expectedByCompany(request, companies, apiEur.today, "NOK", headers);
      const totalNok = [...expectedNok.values()].reduce((s, v) => s.plus(v), new Decimal(0));
      await expect(total).toHaveAttribute("data-amount", totalNok.toFixed(2));
      const after = await amounts.evaluateAll((els) =>
        els.map((e) => ({ amount: e.getAttribute("data-amount"), currency: e.getAttribute("data-currency") })),
      );
      expect(after).toHaveLength(before.length);
      after.forEach((a, i) => {
        expect(a.currency).toBe("NOK");
        if (before[i] !== "0.00") expect(a.amount).not.toBe(before[i]);
      });
      await page.screenshot({ path: path.join(SCREENSHOTS, "group-overview-nok.png"), fullPage: true });

      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: path.join(SCREENSHOTS, "group-overview-390.png"), fullPage: true });
      await setReportingCurrency(request, "EUR", headers);
      await page.context().close();
    },
  );
});

test.describe("as the viewer, limited to two companies", () => {
  test.use({ storageState: storageState("viewer") });

  test("sees only those two companies; a bad reporting currency is refused naming the field", async ({ page }) => {
    const request = page.request;
    const companies = await companiesOf(request);
    expect(companies).toHaveLength(2);
    const ids = companies.map((c) => c.id).sort();
    const body = (await (await request.get("/api/group/position")).json()) as GroupPositionBody;
    expect(body.companyCount).toBe(2);
    expect(body.byCompany.map((r) => r.key).sort()).toEqual(ids);

    await page.goto("/");
    const rows = page.getByTestId("group-row-company");
    await expect(rows).toHaveCount(2);
    expect((await rows.evaluateAll((rs) => rs.map((r) => r.getAttribute("data-key")))).sort()).toEqual(ids);

    for (const bad of ["ABC", "nok", 42]) {
      const res = await request.put("/api/session/reporting-currency", {
        headers: writeHeaders(),
        data: { currency: bad },
      });
      expect(res.status()).toBe(400);
      const err = (await res.json()) as { message: string; details: { errors: Record<string, string[]> } };
      expect(err.message).toMatch(/^currency /);
      expect(Object.keys(err.details.errors)).toEqual(["currency"]);
    }
    const q = await request.get("/api/group/position?currency=XYZ");
    expect(q.status()).toBe(400);
  });
});
