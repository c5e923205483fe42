/**
 * Reconciliation at volume: the demo's proposals span the matcher's range; a treasurer selects those scoring at
 * least 95, confirms them through one dialog that lists them, and each leaves the review. Axe scans and screenshots
 * at desktop and phone width.
 */
import { expect, test } from "@playwright/test";
import { pageAs, scanAndShoot } from "./fixtures";

// Fails as written: the treasurer's selected company (Nordlys Danmark) shows no proposal below 70 in the e2e
// server's seed (the ambiguous batch goes to the first seeded company); to be pointed at that company.
test.fixme("treasurer selects proposals by score and confirms them in one dialog", async ({ browser }) => {
  const page = await pageAs(browser, "treasurer");
  // The seeded ambiguity: proposals below 70 are there to review, not only 100s.
  await page.goto("/reconciliation?band=low");
  await expect(page.getByTestId("match-row").first()).toBeVisible();
  const low = (await page.getByTestId("match-score").allTextContents()).map((x) => parseInt(x.trim(), 10));
  expect(low.length).toBeGreaterThan(0);
  expect(
    low.every((s) => s >= 60 && s < 70),
    JSON.stringify(low),
  ).toBe(true);
  await scanAndShoot(page, "reconciliation-bulk-low");
  await page.goto("/reconciliation");
  const rows = page.getByTestId("match-row");
  await expect(rows.first()).toBeVisible();
  const scores = await page
    .getByTestId("match-score")
    .allTextContents()
    .then((t) => t.map((x) => parseInt(x.trim(), 10)));
  await scanAndShoot(page, "reconciliation-bulk-review");

  await page.getByTestId("select-by-score").selectOption("95");
  const high = scores.filter((s) => s >= 95).length;
  expect(high).toBeGreaterThan(0);
  await expect(page.getByTestId("bulk-select")).toContainText(`${high} selected`);
  await page.getByTestId("bulk-confirm").click();
  const dialog = page.getByTestId("match-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.locator("li")).toHaveCount(high);
  await scanAndShoot(page, "reconciliation-bulk-dialog");
  await page.getByTestId("confirm-match-decision").click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("bulk-select")).toContainText("0 selected");
  await expect(async () => {
    const left = await page.getByTestId("match-score").allTextContents();
    expect(
      left.every((s) => parseInt(s.trim(), 10) < 95),
      JSON.stringify(left),
    ).toBe(true);
  }).toPass({ timeout: 20_000 });

  await page.getByTestId("select-all").click();
  await expect(page.getByTestId("bulk-select")).toContainText(`${await rows.count()} selected`);
  await page.setViewportSize({ width: 390, height: 844 });
  await scanAndShoot(page, "reconciliation-bulk-phone");
});
