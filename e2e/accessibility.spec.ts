/**
 * Accessibility: date fields in the viewer's locale (en-GB dd/mm/yyyy through the calendar and by typing, the URL
 * keeps YYYY-MM-DD, a bad date names its field), 24 × 24 px targets for selection checkboxes and icon buttons
 * (measured), no text under 12 px, and axe with WCAG 2.2 AA on the main pages, the open calendar, and /invite and /users at 390 and 1440 px.
 * Screenshots go to e2e/screenshots/a11y-*.png.
 */
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { AXE_TAGS, EXPECTED_AREAS, SCREENSHOTS, scanAndShoot, storageState } from "./fixtures";

const ukDate = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

test.describe("date fields in en-GB", () => {
  test.use({ locale: "en-GB", timezoneId: "Europe/Oslo", storageState: storageState("approver") });

  test("the calendar and typed entry show dd/mm/yyyy; the URL holds YYYY-MM-DD; a bad date names the field", async ({
    page,
  }) => {
    await page.goto("/transactions?range=30d");
    const from = page.getByTestId("range-from");
    await expect(from).toHaveValue(/^\d{2}\/\d{2}\/\d{4}$/);
    const before = (await from.getAttribute("data-value")) ?? "";
    expect(await from.inputValue()).toBe(ukDate(before));

    // Keyboard only: open the calendar, move one day back, pick it.
    await page.getByTestId("range-from-calendar").focus();
    await page.keyboard.press("Enter");
    const calendar = page.getByRole("dialog", { name: "From: calendar" });
    await expect(calendar).toBeVisible();
    await expect(calendar.getByRole("grid")).toBeVisible();
    const scan = await new AxeBuilder({ page })
      .withTags(AXE_TAGS)
      .include("[data-radix-popper-content-wrapper]")
      .analyze();
    expect(scan.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, "a11y-calendar.png") });
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Enter");
    await expect(calendar).toBeHidden();
    await expect(page).toHaveURL(/[?&]from=\d{4}-\d{2}-\d{2}/);
    const picked = new URL(page.url()).searchParams.get("from") ?? "";
    const d = new Date(`${before}T12:00:00Z`);
    d.setUTCDate(d.getUTCDate() - 1);
    expect(picked).toBe(d.toISOString().slice(0, 10));
    await expect(from).toHaveValue(ukDate(picked));
    await expect(page.getByTestId("range-from-calendar")).toBeFocused();

    // Typed in the locale's layout without leading zeros (day first): the day after the picked one.
    const to = page.getByTestId("range-to");
    d.setUTCDate(d.getUTCDate() + 1);
    const next = d.toISOString().slice(0, 10);
    await to.fill(`${d.getUTCDate()}/${d.getUTCMonth() + 1}/${d.getUTCFullYear()}`);
    await to.press("Tab");
    await expect(page).toHaveURL(new RegExp(`[?&]to=${next}(&|$)`));
    await expect(to).toHaveValue(ukDate(next));

    // Before From: refused with the bound in the locale's layout.
    await to.fill(ukDate(picked).replace(/^\d{2}/, "01"));
    await to.press("Tab");
    await expect(
      page.getByRole("alert").filter({ hasText: `To: the earliest date is ${ukDate(picked)}` }),
    ).toBeVisible();

    // Impossible date: the field says which field and what layout; the URL keeps the last good date.
    await to.fill("31/02/2026");
    await to.press("Tab");
    await expect(page.getByRole("alert").filter({ hasText: "To: enter a date as dd/mm/yyyy" })).toBeVisible();
    await expect(to).toHaveAttribute("aria-invalid", "true");
    expect(new URL(page.url()).searchParams.get("to")).toBe(next);
    await page.screenshot({ path: path.join(SCREENSHOTS, "a11y-date-error.png") });
  });
});

/** Every visible checkbox's target (its label when it has one) and every icon-only button, smaller than 24 px. */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const small: string[] = [];
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
    };
    for (const box of document.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')) {
      if (!visible(box)) continue;
      const target = box.closest("label") ?? box;
      const r = target.getBoundingClientRect();
      if (r.width < 24 || r.height < 24)
        small.push(`checkbox ${box.getAttribute("aria-label")}: ${r.width}×${r.height}`);
    }
    for (const b of document.querySelectorAll<HTMLElement>("button[aria-label], a[aria-label]")) {
      if (!visible(b) || (b.textContent ?? "").trim() !== "") continue;
      const r = b.getBoundingClientRect();
      if (r.width < 24 || r.height < 24) small.push(`button ${b.getAttribute("aria-label")}: ${r.width}×${r.height}`);
    }
    return small;
  });
}

/** Visible text set smaller than 12 px. */
async function smallText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const small: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>("body *")) {
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? "").trim());
      if (!own || el.closest(".sr-only")) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < 12 && el.getBoundingClientRect().width > 0) small.push(`${el.tagName} ${size}px "${el.textContent}"`);
    }
    return small.slice(0, 5);
  });
}

test.describe("targets and text sizes", () => {
  test.use({ storageState: storageState("approver") });

  test("checkboxes and icon buttons are at least 24 × 24 px; no text under 12 px", async ({ page }) => {
    const counts: Record<string, number> = {};
    for (const url of ["/approvals", "/reconciliation", "/transactions"]) {
      await page.goto(url);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await page.waitForLoadState("networkidle");
      counts[url] = await page.locator('input[type="checkbox"], button[aria-label]').count();
      expect(await smallTargets(page), url).toEqual([]);
      expect(await smallText(page), url).toEqual([]);
    }
    // The pages above hold the shared select boxes and the calendar buttons that are measured.
    expect(counts["/transactions"]).toBeGreaterThanOrEqual(2);
    expect((counts["/approvals"] ?? 0) + (counts["/reconciliation"] ?? 0)).toBeGreaterThan(0);

    // A dialog's close button (the transaction drawer).
    await page.getByTestId("transaction-row").first().click();
    const close = page.getByRole("button", { name: "Close" });
    await expect(close).toBeVisible();
    const box = await close.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThanOrEqual(24);
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(24);
    expect(await smallTargets(page)).toEqual([]);
  });
});

test.describe("axe with WCAG 2.2 AA on the main pages", () => {
  test.use({ locale: "en-GB", storageState: storageState("approver") });

  test("every main page of an approver is clean", async ({ page }) => {
    test.setTimeout(180_000);
    for (const area of EXPECTED_AREAS.approver) {
      await page.goto(area === "overview" ? "/" : `/${area}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await scanAndShoot(page, `a11y-${area}`);
    }
  });
});

test.describe("axe on the invitation page and the users page, at 390 and 1440 px", () => {
  test.use({ locale: "en-GB" });

  // The form shows for any token in the fragment (it is checked only when sent), so no invitation is issued here.
  test("/invite, signed out, is clean", async ({ page }) => {
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/invite#a11y-scan-token");
      await expect(page.getByTestId("invite-email")).toBeVisible();
      await scanAndShoot(page, `a11y-invite-${width}`);
    }
  });

  test.describe("as an admin", () => {
    test.use({ storageState: storageState("admin") });

    test("/users is clean", async ({ page }) => {
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto("/users");
        await expect(page.getByTestId("user-row-admin@demo.local")).toBeVisible();
        await scanAndShoot(page, `a11y-users-${width}`);
      }
    });
  });
});

test.describe("phone nits at 390 × 844", () => {
  test.use({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    storageState: storageState("admin"),
  });

  test("overview chart, audit log and header fit a phone", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.waitForLoadState("networkidle");
    // The company switcher lies wholly on the screen, beside the menu button and the user menu.
    const sw = await page.getByTestId("company-switcher").boundingBox();
    expect(sw).not.toBeNull();
    expect((sw?.x ?? 0) + (sw?.width ?? 0)).toBeLessThanOrEqual(390);
    expect(sw?.width ?? 0).toBeGreaterThanOrEqual(120);
    await page.screenshot({ path: path.join(SCREENSHOTS, "a11y-phone-overview.png"), fullPage: true });
    await page.goto("/audit?events=all"); // sign-ins are always there, business events only once some spec made one
    await expect(page.getByTestId("audit-row").first()).toBeVisible();
    const time = await page.getByTestId("audit-row").first().locator("td").first().boundingBox();
    expect(time?.width ?? 999).toBeLessThanOrEqual(130);
    await page.screenshot({ path: path.join(SCREENSHOTS, "a11y-phone-audit.png"), fullPage: true });
  });
});
