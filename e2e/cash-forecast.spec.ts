/**
 * The cash forecast journey (docs/forecast.md), on the quiet stack (e2e/quiet-stack.ts: nothing moves its
 * balances while the test reads them): finance adds a manual payment and sees the lowest balance fall by it, adds
 * the customer receipt that covers it, saves "customers pay 10 days later" and compares it with the base case —
 * the scenario's lowest balance falls by the receipt that now comes after the payment — then exports the
 * comparison and finds the same lowest balances, dates and the rates in the CSV. What it adds (two manual lines,
 * one scenario) is its own and removed at the end. The variance section shows its table or says when the first
 * comparison appears. Screenshots at 1440 and 390 px.
 *
 * The variance table with figures: a fresh stack has no past snapshot, so the second test stores one for the week
 * before this one through the test seam (`POST /api/forecast/snapshots`, docs/forecast.md#variance) — the week
 * before last's snapshot of one company, a key the forecast itself never writes (it keeps only the current week's) —
 * and finds last week's row with the forecast it stored, the actual and the difference the variance route gives,
 * formatted as money in the viewer's locale.
 */
import Decimal from "decimal.js";
import type { Page } from "@playwright/test";
import { formatMoney } from "../lib/money";
import { downloadCsv } from "./read-helpers";
import { expect, test } from "./quiet-stack";

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-fc";
const SCENARIO = "E2E customers pay 10 days later";
const BIG = "1000000000.00";

function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The lowest balance (exact decimal string) and its date shown for a case. */
async function lowest(page: Page, name: string): Promise<{ amount: Decimal; date: string }> {
  const row = page.getByTestId(`case-${name}`);
  await expect(row).toBeVisible({ timeout: 90_000 });
  const amount = await row.locator("[data-amount]").first().getAttribute("data-amount");
  const date = (await row.locator("td").nth(2).innerText()).trim();
  return { amount: new Decimal(amount ?? "NaN"), date };
}

test("finance adds a line and a scenario, sees the lowest balance move and exports the comparison", async ({
  browser,
  quietStack,
}) => {
  test.setTimeout(300_000);
  const page = await quietStack.signIn(browser, "treasurer");
  await page.setViewportSize({ width: 1440, height: 900 });
  const api = await page.request.get("/api/forecast?weeks=13");
  expect(api.status()).toBe(200);
  const v = (await api.json()) as { from: string; reporting_currency: string; companies: { id: string }[] };
  const rc = v.reporting_currency;
  try {
    await page.goto("/reports/forecast");
    const fc = page.getByTestId("cash-forecast");
    await expect(fc).toBeVisible({ timeout: 120_000 });
    // Forecast against actuals: the table once a snapshot covers a finished week, else the sentence saying when.
    await expect(page.getByRole("heading", { name: "Forecast against actuals" })).toBeVisible();
    await expect(page.getByTestId("variance-empty").or(page.getByTestId("variance"))).toBeVisible();
    const before = await lowest(page, "Base case");

    // A manual payment a week ahead: the base case's lowest balance falls by it.
    const form = page.getByRole("form", { name: "New manual line" });
    const addLine = async (date: string, amount: string, category: string) => {
      await form.getByLabel("Date").fill(date);
      await form.getByLabel(/Amount/).fill(amount);
      await form.getByLabel("Currency").fill(rc);
      await form.getByLabel("Category").fill(category);
      await expect(form.getByLabel("Date")).toHaveValue(date);
      await form.getByRole("button", { name: "Add line" }).click();
      await expect(page.getByRole("region", { name: "Manual lines", exact: true }).getByText(category)).toBeVisible({
        // Each write recomputes the whole forecast before the page shows it (docs/forecast.md "Speed": seconds of CPU).
        timeout: 90_000,
      });
    };
    await addLine(addDays(v.from, 6), `-${BIG}`, "E2E dividend");
    await expect
      .poll(async () => (await lowest(page, "Base case")).amount.toFixed(2), { timeout: 90_000 })
      .not.toBe(before.amount.toFixed(2));
    const withPayment = await lowest(page, "Base case");
    expect(withPayment.amount.lte(before.amount.minus(BIG).plus("0.01"))).toBe(true);

    // The customer receipt that covers it, three days earlier: the low is back where it was, or near.
    await addLine(addDays(v.from, 3), BIG, "E2E Customer receipts");
    await expect
      .poll(async () => (await lowest(page, "Base case")).amount.gt(withPayment.amount), { timeout: 90_000 })
      .toBe(true);
    const base = await lowest(page, "Base case");

    // Customers pay 10 days later: the receipt lands after the payment, the scenario's low falls by it.
    const sc = page.getByRole("form", { name: "New scenario" });
    await sc.getByLabel("Scenario name").fill(SCENARIO);
    await sc.getByLabel("Change").selectOption("shift");
    await sc.getByLabel("Category").fill("E2E Customer receipts");
    await sc.getByLabel("Days", { exact: true }).fill("10");
    await sc.getByRole("button", { name: "Save scenario" }).click();
    await page.getByRole("checkbox", { name: SCENARIO }).check();
    const scenario = await lowest(page, SCENARIO);
    // From the receipt's old day (3) to its new one (13) the scenario runs exactly BIG below the base case, elsewhere
    // with it: its low is the base path's lowest point in that window less BIG — never more than BIG below the base
    // case's own low, and below it by nearly all of BIG (the base path moves far less than BIG in ten days).
    const diff = `${scenario.amount} vs ${base.amount}`;
    expect(scenario.amount.gte(base.amount.minus(BIG).minus("0.01")), diff).toBe(true);
    expect(scenario.amount.lte(base.amount.minus(new Decimal(BIG).times("0.9"))), diff).toBe(true);
    await page.screenshot({ path: `${SHOTS}/cash-forecast-1440.png`, fullPage: true });

    // The comparison CSV: both cases, the same lowest balances, the rates with their dates.
    const csv = await downloadCsv(page, page.getByTestId("export-comparison"));
    expect(csv.errors).toEqual([]);
    const cases = new Set(csv.data.map((r) => r.case));
    expect([...cases]).toEqual(["Base case", SCENARIO]);
    const low = (name: string) => csv.data.find((r) => r.case === name && r.lowest === "yes");
    expect(new Decimal(low("Base case")?.balance ?? "NaN").toFixed(2)).toBe(base.amount.toFixed(2));
    expect(new Decimal(low(SCENARIO)?.balance ?? "NaN").toFixed(2)).toBe(scenario.amount.toFixed(2));
    expect(csv.data.every((r) => r.reporting_currency === rc)).toBe(true);
    expect(csv.meta.fields).toContain("rates");

    // On a phone the money stays visible.
    await page.setViewportSize({ width: 390, height: 844 });
    const cell = page.getByTestId(`case-${SCENARIO}`).locator("[data-amount]").first();
    await cell.scrollIntoViewIfNeeded();
    await expect(cell).toBeInViewport();
    await page.screenshot({ path: `${SHOTS}/cash-forecast-390.png`, fullPage: true });
  } finally {
    // Remove what this test added, whatever step it stopped at.
    const stored = (await (await page.request.get("/api/forecast/lines")).json()) as {
      lines: { id: string; category: string }[];
      scenarios: { id: string; name: string }[];
    };
    for (const l of stored.lines.filter((x) => x.category.startsWith("E2E ")))
      await page.request.delete(`/api/forecast/lines/${l.id}`, { headers: quietStack.writeHeaders() });
    for (const x of stored.scenarios.filter((y) => y.name === SCENARIO))
      await page.request.delete(`/api/forecast/scenarios/${x.id}`, { headers: quietStack.writeHeaders() });
  }
});

/** Monday (`YYYY-MM-DD`) of the ISO week of `date`. */
function mondayOf(date: string): string {
  const dow = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(date, -dow);
}

test("the variance table shows last week's forecast against its actuals, formatted as money", async ({
  browser,
  quietStack,
}) => {
  test.setTimeout(240_000);
  const page = await quietStack.signIn(browser, "treasurer");
  await page.setViewportSize({ width: 1440, height: 900 });
  const v = (await (await page.request.get("/api/forecast?weeks=13")).json()) as {
    as_of: string;
    reporting_currency: string;
    companies: { id: string }[];
  };
  const rc = v.reporting_currency;
  const company = v.companies[0]?.id ?? "";
  // Last week, forecast by a snapshot taken the Sunday before it began (in the week before last).
  const week = addDays(mondayOf(v.as_of), -7);
  const asOf = addDays(week, -1);
  const forecast = "-1234.56";
  const stored = await page.request.post("/api/forecast/snapshots", {
    headers: quietStack.writeHeaders(),
    data: {
      company_id: company,
      as_of: asOf,
      forecast_to: addDays(asOf, 91),
      rows: [{ week_start: week, currency: rc, category: "E2E variance", amount: forecast }],
    },
  });
  expect(stored.status(), await stored.text()).toBe(201);
  // A hostile snapshot changes nothing: a 400 naming the field.
  const bad = await page.request.post("/api/forecast/snapshots", {
    headers: quietStack.writeHeaders(),
    data: { company_id: company, as_of: asOf, forecast_to: addDays(asOf, 400), rows: [] },
  });
  expect(bad.status()).toBe(400);
  expect(await bad.text()).toContain("forecast_to");

  const api = (await (await page.request.get("/api/forecast/variance?weeks=8")).json()) as {
    weeks: { week_start: string; forecast: string; actual: string; difference: string }[];
  };
  const row = api.weeks.find((w) => w.week_start === week);
  expect(row?.forecast).toBe(new Decimal(forecast).toFixed(2));
  expect(new Decimal(row?.difference ?? "NaN").toFixed(2)).toBe(
    new Decimal(row?.actual ?? "NaN").minus(forecast).toFixed(2),
  );

  await page.goto("/reports/forecast");
  const tr = page.getByTestId(`variance-week-${week}`);
  // The page computes the whole forecast first (docs/forecast.md "Speed").
  await expect(tr).toBeVisible({ timeout: 120_000 });
  const locale = await page.evaluate(() => navigator.language);
  const cells = tr.locator("[data-amount]");
  await expect(cells).toHaveCount(3);
  const figures = [
    [row?.forecast, false],
    [row?.actual, false],
    [row?.difference, true],
  ] as const;
  for (const [i, [value, signed]] of figures.entries()) {
    await expect(cells.nth(i)).toHaveAttribute("data-amount", value ?? "");
    await expect(cells.nth(i)).toHaveText(formatMoney(value ?? "0", rc, { locale, signed }));
  }
  await tr.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/variance-1440.png` });

  // On a phone the figures stay visible.
  await page.setViewportSize({ width: 390, height: 844 });
  for (let i = 0; i < 3; i++) {
    await cells.nth(i).scrollIntoViewIfNeeded();
    await expect(cells.nth(i)).toBeInViewport();
  }
  await tr.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/variance-390.png` });
});
