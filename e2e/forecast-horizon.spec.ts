/**
 * The forecast a person can steer: the horizon (7 / 30 / 90 days) is URL state and sets how many forecast days
 * the table, the chart and the CSV hold; each day's breakdown (opening position, expected flows, outgoing batches)
 * adds up to the expected position, on screen and in the CSV; another horizon is a 400 naming the field.
 * Screenshots at desktop width and at 390 px.
 */
import { expect, test } from "@playwright/test";
import Decimal from "decimal.js";
import { storageState } from "./fixtures";
import { downloadCsv } from "./read-helpers";

test.use({ storageState: storageState("viewer"), timezoneId: "Europe/Oslo", locale: "en-GB" });

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-forecast";

/** "NOK 1,234.50" / "-NOK 12.00" / "−1 234,50 kr" → a Decimal (digits, sign and the decimal point only). */
function money(text: string): Decimal {
  const t = text.replace(/\u2212/g, "-").replace(/[^\d.-]/g, "");
  return new Decimal(t.startsWith("-") || text.includes("-") ? `-${t.replace(/-/g, "")}` : t);
}

test("horizon 7 / 30 / 90 days: rows, breakdown adding up, URL state and CSV", async ({ page }) => {
  await page.setViewportSize({ width: 1360, height: 900 });
  await page.goto("/reports/forecast");
  const picker = page.getByTestId("forecast-horizon");
  await expect(picker.getByRole("radio", { name: "30 days" })).toHaveAttribute("aria-checked", "true");
  const section = page.locator("table").first();
  await expect(section.getByTestId("forecast-row")).toHaveCount(30);

  await picker.getByRole("radio", { name: "7 days" }).click();
  await expect(page).toHaveURL(/horizon=7/);
  await expect(section.getByTestId("forecast-row")).toHaveCount(7);
  // Each day: opening + expected flows − outgoing batches (to date) = expected position.
  for (const row of await section.getByTestId("forecast-row").all()) {
    const cells = await row.locator("td").allInnerTexts();
    const [, opening, flows, , outgoing, amount] = cells.map((c) => c.trim());
    expect(
      money(opening ?? "")
        .plus(money(flows ?? ""))
        .minus(money(outgoing ?? ""))
        .toFixed(2),
    ).toBe(money(amount ?? "").toFixed(2));
  }
  await page.screenshot({ path: `${SHOTS}/forecast-7d-desktop.png`, fullPage: true });

  const csv = await downloadCsv(page, page.getByRole("button", { name: "Export CSV" }));
  expect(csv.errors).toEqual([]);
  const forecastRows = csv.data.filter((r) => r.kind === "forecast");
  const currencies = new Set(forecastRows.map((r) => r.currency));
  expect(forecastRows).toHaveLength(7 * currencies.size);
  for (const r of forecastRows)
    expect(
      new Decimal(r.opening ?? "")
        .plus(r.expected_flows ?? "")
        .minus(r.outgoing_batches ?? "")
        .toFixed(),
    ).toBe(new Decimal(r.amount ?? "").toFixed());

  await page.goto("/reports/forecast?horizon=90");
  await expect(page.getByTestId("forecast-horizon").getByRole("radio", { name: "90 days" })).toHaveAttribute(
    "aria-checked",
    "true",
  );
  await expect(page.locator("table").first().getByTestId("forecast-row")).toHaveCount(90);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/reports/forecast?horizon=7");
  await expect(page.locator("table").first().getByTestId("forecast-row")).toHaveCount(7);
  await page.screenshot({ path: `${SHOTS}/forecast-7d-390.png`, fullPage: true });
});

test("a horizon other than 7, 30 or 90 is a 400 naming horizon", async ({ page }) => {
  const res = await page.request.get("/api/treasury/reporting/forecast/export?horizon=14");
  expect(res.status()).toBe(400);
  expect(JSON.stringify(await res.json())).toContain("horizon");
});
