import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { BASE_URL } from "../playwright.config";
import { pageAs, scanAndShoot, storageState } from "./fixtures";

/**
 * Cashflow categories end to end: an admin writes a rule on the categories page, previews it on the last 90 days
 * (a count), saves it; the cashflow report groups by it, the transactions list filters by it and the CSV exports
 * carry it. Bad input is a 400 naming the field. Screenshots (desktop and 390 px) go to /tmp/shots-categories.
 */

const SHOTS = "/tmp/shots-categories";
const headers = () => ({ Origin: BASE_URL, "Idempotency-Key": randomUUID() });

test("an admin's category rule is previewed, saved and shows in the report, the list and the CSVs", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const category = `Card settlements ${randomUUID().slice(0, 6)}`;
  const admin = await playwrightRequest.newContext({ baseURL: BASE_URL, storageState: storageState("admin") });

  const bad = await admin.post("/api/categories", {
    headers: headers(),
    data: { category: "", iban: "NO00 1", min_amount: "5", max_amount: "5" },
  });
  expect(bad.status()).toBe(400);
  const errors = ((await bad.json()) as { details: { errors: Record<string, string[]> } }).details.errors;
  expect(Object.keys(errors)).toEqual(expect.arrayContaining(["category", "iban", "max_amount"]));
  expect(
    (await admin.post("/api/categories/preview", { headers: headers(), data: { direction: "up" } })).status(),
  ).toBe(400);

  const page = await pageAs(browser, "admin");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/categories");
  await expect(page.getByRole("heading", { name: "Cashflow categories" })).toBeVisible();
  await page.getByLabel("Category", { exact: true }).fill(category);
  // The card acquirer's daily settlements: no other spec's rule names them (group-categories, running alongside, puts
  // a "nordlys" rule first, which would take intercompany transactions from this one's preview).
  await page.getByLabel("Counterparty contains").fill("nets");
  await expect(page.getByRole("button", { name: "Add rule" })).toBeDisabled();
  await page.getByRole("button", { name: "Preview on last 90 days" }).click();
  const preview = page.getByTestId("category-preview");
  await expect(preview).toContainText("would categorise");
  const count = Number((await preview.locator("strong").textContent()) ?? "0");
  expect(count).toBeGreaterThan(0);
  await page.screenshot({ path: `${SHOTS}/categories-preview.png`, fullPage: true });
  await page.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByTestId("category-rules").getByText(category)).toBeVisible();

  // First, so that rules left by other runs do not take its transactions.
  const view = (await (await admin.get("/api/categories")).json()) as { rules: { id: string; category: string }[] };
  const rule = view.rules.find((r) => r.category === category);
  if (!rule) throw new Error(`rule ${category} was not saved`);
  const moved = await admin.post(`/api/categories/${rule.id}/move`, { headers: headers(), data: { position: 1 } });
  expect(moved.status()).toBe(200);
  await page.reload();
  await scanAndShoot(page, "categories-admin");

  // The preview's window: the rule's transactions are somewhere in the last 90 days.
  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
  try {
    await page.goto(`/reports/cashflow?from=${from}&to=${today}`);
    const table = page.getByTestId("category-cashflow");
    await expect(table.locator(`tr[data-category="${category}"]`).first()).toBeVisible();
    await expect(table.locator('tr[data-category="Uncategorised"]').first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/cashflow-desktop.png`, fullPage: true });
    await scanAndShoot(page, "cashflow-categories");

    const catCsv = await admin.get(
      `/api/treasury/reporting/cashflow/categories/export?from_date=${from}&to_date=${today}`,
    );
    expect(catCsv.status()).toBe(200);
    const catText = await catCsv.text();
    expect(catText.split("\n")[0]).toContain("category");
    expect(catText).toContain(category);

    const txCsv = await admin.get(
      `/api/treasury/transactions/export?from_date=${from}&to_date=${today}&category=${encodeURIComponent(category)}`,
    );
    expect(txCsv.status()).toBe(200);
    const lines = (await txCsv.text()).trim().split("\n");
    expect(lines[0]).toMatch(/,category\r?$/);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines.slice(1)) expect(l).toContain(category);

    await page.goto(`/transactions?from=${from}&to=${today}&category=${encodeURIComponent(category)}`);
    await expect(page.getByRole("row").filter({ hasText: category }).first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/transactions-desktop.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/reports/cashflow?from=${from}&to=${today}`);
    await expect(page.getByTestId("category-cashflow")).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/cashflow-390.png`, fullPage: true });
    await page.goto("/categories");
    await page.screenshot({ path: `${SHOTS}/categories-390.png`, fullPage: true });
  } finally {
    const del = await admin.delete(`/api/categories/${rule.id}`, { headers: headers() });
    expect(del.status()).toBe(204);
  }
  const audit = await admin.get("/api/audit?action=category_rule.create");
  if (audit.ok()) expect(await audit.text()).toContain(rule.id);
});
