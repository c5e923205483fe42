/**
 * The dashboard on a phone (390 × 844, touch): the menu button opens the
 * navigation sheet (focus inside, Escape closes it, a link navigates and
 * closes it, axe-clean); an approver approves a batch from the queue's cards;
 * no main page scrolls sideways at 390 or 360 px (the page body nor the main
 * area: wide tables scroll in their own box). Full-page screenshots of every
 * main page at 390 × 844 are saved as e2e/screenshots/phone-<area>.png.
 */
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { EXPECTED_AREAS, SCREENSHOTS, createBatchVia, pageAs, storageState, writeHeaders } from "./fixtures";
import { overflow } from "./phone-helpers";

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

test.describe("navigation on a phone", () => {
  test.use({ ...PHONE, storageState: storageState("approver") });

  test("the menu button opens the navigation as a dialog; Escape closes it; a link navigates and closes it", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // The sidebar is gone; the header keeps the switcher and sign-out within the width.
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await expect(page.getByTestId("company-switcher")).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    const button = page.getByTestId("menu-button");
    const box = await button.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(44);
    expect(box?.height).toBeGreaterThanOrEqual(44);

    // The button is enabled once the page has hydrated (tap waits for that); the sheet's module loads then.
    const sheet = page.getByRole("dialog", { name: "Treasury menu" });
    await button.tap();
    await expect(sheet).toBeVisible();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    const nav = sheet.getByRole("navigation", { name: "Main" });
    await expect(nav.locator("a[data-area]")).toHaveCount(EXPECTED_AREAS.approver.length);
    await expect(sheet.getByTestId("sheet-user-name")).toHaveText("Anna Approver");
    // Focus is trapped inside: tabbing past the last link comes back into the sheet.
    for (let i = 0; i < EXPECTED_AREAS.approver.length + 3; i++) await page.keyboard.press("Tab");
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="nav-sheet"]'))).toBe(true);

    // axe on the open menu (WCAG 2.2 AA tags): no violation at all.
    const r = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .exclude("[data-sonner-toaster]")
      .analyze();
    expect(
      r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`),
    ).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, "phone-menu.png") });

    await page.keyboard.press("Escape");
    await expect(sheet).toBeHidden();
    await expect(button).toBeFocused();

    await button.tap();
    await expect(sheet).toBeVisible();
    await nav.locator('a[data-area="accounts"]').tap();
    await expect(page).toHaveURL(/\/accounts$/);
    await expect(sheet).toBeHidden();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
});

test.describe("approving on a phone", () => {
  test.use({ ...PHONE, storageState: storageState("approver") });

  test("an approver approves a batch the treasurer submitted, from its card", async ({ page, browser }) => {
    // The treasurer creates and submits the batch (four-eyes: its creator could not approve it).
    const treasurer = await pageAs(browser, "treasurer");
    await treasurer.goto("/payments");
    const run = Date.now().toString(36).toUpperCase();
    const batchId = await createBatchVia(treasurer, "NOK", [
      {
        amount: "1250.00",
        creditor_name: "Handheld Supplies Ltd",
        creditor_iban: "GB82WEST12345698765432",
        end_to_end_id: `PH-${run}`,
      },
    ]);
    const submitted = await treasurer.request.post(`/api/treasury/payments/batches/${batchId}/submit`, {
      headers: writeHeaders(),
    });
    expect(submitted.status()).toBe(202);
    await treasurer.context().close();

    await page.goto("/approvals");
    const card = page.locator(`[data-testid="approval-card"][data-batch-id="${batchId}"]`);
    await expect(card).toBeVisible();
    // The table is for wider screens; the phone shows cards.
    await expect(page.getByRole("table", { name: "Approval queue" })).toBeHidden();
    await expect(card.getByTestId("approval-count")).toHaveText(/^0 of [1-9]$/);
    const required = Number((await card.getByTestId("approval-count").textContent())?.split(" of ")[1]);
    await expect(card.locator("[data-amount]")).toHaveAttribute("data-amount", "1250.00");
    const approve = card.getByRole("button", { name: "Approve" });
    const reject = card.getByRole("button", { name: "Reject" });
    for (const b of [approve, reject]) {
      const box = await b.boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(44);
    }
    const cardBox = await card.boundingBox();
    const approveBox = await approve.boundingBox();
    // Full-width: the button spans the card's content (card padding aside).
    expect(approveBox?.width).toBeGreaterThan((cardBox?.width ?? 0) - 40);
    expect((await overflow(page)).body).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, "phone-approval-card.png"), fullPage: true });

    // Enabled once the page has hydrated (tap waits for that): one tap opens the dialog.
    await approve.tap();
    await expect(page.getByTestId("decision-dialog")).toBeVisible();
    await page.screenshot({ path: path.join(SCREENSHOTS, "phone-approval-dialog.png") });
    await page.getByTestId("confirm-decision").tap();
    // The last required approval takes the batch out of the queue; otherwise the card counts it.
    if (required === 1) await expect(card).toHaveCount(0);
    else await expect(card.getByTestId("approval-count")).toHaveText(`1 of ${required}`);
    // Upstream agrees: the approver's approval is recorded (the batch leaves the queue when it was the last one).
    await expect
      .poll(async () => {
        const queue = (await (await page.request.get("/api/treasury/approvals/queue")).json()) as {
          items: { approval: { object_id: string; approved_count: number } }[];
        };
        return queue.items.find((i) => i.approval.object_id === batchId)?.approval.approved_count ?? "approved";
      })
      .toBe(required === 1 ? "approved" : 1);
  });
});

/** The main page of each area, per role that reaches it: approver for most, admin for webhooks and statements. */
const PAGES: { role: "approver" | "admin"; area: string }[] = [
  ...EXPECTED_AREAS.approver.map((area) => ({ role: "approver" as const, area })),
  { role: "admin", area: "webhooks" },
  { role: "admin", area: "statements" },
];

/** The narrowest phone the dashboard supports (360 px), besides the 390 px of the other tests. */
const SMALL_PHONE = { ...PHONE, viewport: { width: 360, height: 740 } };

for (const [size, device, shoot] of [
  ["390 px", PHONE, true],
  ["360 px", SMALL_PHONE, false],
] as const) {
  test.describe(`every main page on a ${size} phone`, () => {
    for (const role of ["approver", "admin"] as const) {
      test.describe(`as ${role}`, () => {
        test.use({ ...device, storageState: storageState(role) });
        test("no sideways scrolling of the page or the main area", async ({ page }) => {
          test.setTimeout(120_000);
          const problems: string[] = [];
          for (const { area } of PAGES.filter((p) => p.role === role)) {
            await page.goto(area === "overview" ? "/" : `/${area}`);
            await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
            // Charts and lists load after the first paint; measure what a person sees once it has settled.
            await page.waitForLoadState("networkidle");
            const o = await overflow(page);
            if (o.body > 0) problems.push(`${area}: the page is ${o.body}px wider than the screen (${o.culprit})`);
            if (o.main > 0) problems.push(`${area}: the main area scrolls sideways by ${o.main}px (${o.culprit})`);
            if (shoot) await page.screenshot({ path: path.join(SCREENSHOTS, `phone-${area}.png`), fullPage: true });
          }
          expect(problems).toEqual([]);
        });
      });
    }
  });
}
