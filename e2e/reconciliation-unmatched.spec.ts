/**
 * The unmatched view: a treasurer opens it from the reconciliation page, sees executed payments without a confirmed
 * match with their age in days and age bucket (oldest first), filters by age, matches one payment by hand with its
 * bank debit (the confirmation names both sides and the amount difference), the payment leaves the view and the match
 * is listed under Decided as confirmed and matched by hand. A viewer sees the view without the action. Axe scans and
 * screenshots at desktop and phone width (390 × 844), where the page itself never scrolls sideways.
 */
import { expect, test, type Page } from "@playwright/test";
import { pageAs, scanAndShoot, settledPayment, storageState } from "./fixtures";
import { openDecidedRow } from "./decided-tab";

async function noSidewaysScroll(page: Page): Promise<void> {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(over).toBeLessThanOrEqual(0);
}

test("a treasurer sees ages, matches a payment by hand, and finds it under Decided", async ({ browser }) => {
  // Six pages and dialogs, each scanned by axe: more than the default minute on a loaded 2-core machine.
  test.setTimeout(240_000);
  // A payment of the spec's own, settled, with its booking only proposed (the demo's may be decided by the bulk and
  // rules specs running alongside). Its amount is above any the rules spec's rule could confirm.
  const stamp = Date.now();
  const payeeName = `Manuell Avstemming ${stamp.toString(36).toUpperCase()} AS`;
  const endToEndId = `E2E-MANUAL-${stamp.toString(36)}`;
  const own = await settledPayment(browser, {
    amount: `${(stamp % 9000) + 20000}.${String(stamp % 89).padStart(2, "0")}`,
    creditor_name: payeeName,
    creditor_iban: "NO9386011117947",
    end_to_end_id: endToEndId,
  });
  const page = await pageAs(browser, "treasurer");
  await page.goto("/reconciliation");
  await page.getByTestId("reconciliation-nav-unmatched").click();
  await expect(page).toHaveURL(/\/reconciliation\/unmatched/);
  const rows = page.getByTestId("unmatched-row");
  await expect(rows.first()).toBeVisible();
  // Ages in days, oldest first, each with its bucket.
  const ages = (await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-age"))))) as number[];
  expect(ages.length).toBeGreaterThan(0);
  expect(ages).toEqual([...ages].sort((a, b) => b - a));
  await expect(rows.first()).toContainText(/\d+ days?/);
  await expect(rows.first()).toContainText(/0–2 days|3–7 days|8–30 days|Over 30 days/);
  await scanAndShoot(page, "unmatched-payments");

  // The age filter keeps one bucket.
  await page.getByTestId("unmatched-age").selectOption("0-2");
  await expect(async () => {
    const got = (await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-age"))))) as number[];
    expect(got.every((a) => a <= 2)).toBe(true);
  }).toPass();
  await page.getByTestId("unmatched-age").selectOption("");

  // A payment whose booking is still only proposed has its bank debit among the unmatched ones: match it by hand.
  await page.goto(`/reconciliation/unmatched?q=${encodeURIComponent(payeeName)}`);
  const target = page.locator(`[data-testid="unmatched-row"][data-id="${own.instructionId}"]`);
  await expect(target).toBeVisible();
  await expect(target).toContainText("to review");
  const id = await target.getAttribute("data-id");
  const payee = (await target.locator("td").first().textContent())?.trim() ?? "";
  await target.getByTestId("manual-match").click();
  const pick = page.getByTestId("manual-match-pick");
  await expect(pick).toBeVisible();
  const candidate = pick.getByTestId("manual-match-candidate").first();
  await expect(candidate).toBeVisible();
  await scanAndShoot(page, "unmatched-pick");
  await candidate.click();
  await page.getByTestId("manual-match-next").click();
  const confirm = page.getByTestId("manual-match-confirm");
  await expect(confirm).toBeVisible();
  await expect(confirm.getByTestId("manual-match-side-instruction")).toContainText(payee);
  await expect(confirm.getByTestId("manual-match-side-transaction")).toBeVisible();
  await expect(confirm.getByTestId("manual-match-difference")).toContainText(
    /The amounts are equal|The bank debit is .* (less|more) than the payment/,
  );
  await confirm.getByTestId("manual-match-note").fill("Matched by hand in e2e");
  await scanAndShoot(page, "unmatched-confirm");
  await confirm.getByTestId("confirm-manual-match").click();
  await expect(confirm).toBeHidden();
  await expect(page.locator(`[data-testid="unmatched-row"][data-id="${id}"]`)).toHaveCount(0);

  // The match is confirmed: first under Decided (newest decision first), matched by hand, with the note.
  await page.getByTestId("reconciliation-nav-review").click();
  await page.getByRole("tab", { name: "Decided" }).click();
  await expect(page.getByTestId("match-row").first()).toBeVisible();
  // Other specs decide matches at the same time: the spec's own match is found by its payee, on whichever page of
  // the tab they have pushed it to.
  const decided = page.getByTestId("match-row").filter({ hasText: payeeName }).first();
  await openDecidedRow(page, (item) => item.instruction?.end_to_end_id === endToEndId, decided);
  await expect(decided.getByTestId("match-manual")).toHaveText("Matched by hand");
  await expect(decided.getByTestId("match-reason")).toContainText("Matched by hand in e2e");
  await expect(decided).toContainText(/confirmed/i);
  await scanAndShoot(page, "unmatched-decided");

  // Bank debits without a match (the seeded bank charge has no payment at all).
  await page.goto("/reconciliation/unmatched?kind=transaction");
  await expect(page.getByTestId("unmatched-row").first()).toBeVisible();
  await scanAndShoot(page, "unmatched-debits");
});

test("on a phone the view is a list of cards and the match dialog fits the screen", async ({ browser }) => {
  const ctx = await browser.newContext({
    storageState: storageState("treasurer"),
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await ctx.newPage();
  await page.goto("/reconciliation/unmatched");
  // A phone shows cards, not the table.
  const card = page.getByTestId("unmatched-card").first();
  await expect(card).toBeVisible();
  await expect(page.getByTestId("unmatched-row").first()).toBeHidden();
  await expect(card).toContainText(/\d+ days?/);
  await noSidewaysScroll(page);
  await scanAndShoot(page, "unmatched-phone");
  const button = card.getByTestId("manual-match");
  const box = await button.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
  await button.tap();
  await expect(page.getByTestId("manual-match-pick")).toBeVisible();
  await noSidewaysScroll(page);
  await scanAndShoot(page, "unmatched-phone-pick");
  await ctx.close();
});

test("a viewer sees the unmatched items without the manual match", async ({ browser }) => {
  const page = await pageAs(browser, "viewer");
  await page.goto("/reconciliation/unmatched");
  await expect(page.getByTestId("unmatched-row").first()).toBeVisible();
  await expect(page.getByTestId("manual-match")).toHaveCount(0);
});
