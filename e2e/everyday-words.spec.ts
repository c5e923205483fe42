/**
 * The everyday words of the dashboard (issue 30): payment entry in the
 * user's language (a German browser types 1.234,50; "Required" for an empty
 * cell; plain messages that update while typing; proposed end-to-end ids; an
 * error summary whose links move to the field), "not found" pages inside the
 * shell with a way back (unknown batch, account, corporate group, address),
 * and the audit log in words with business events first. Axe-scanned;
 * screenshots at 390 and 1440 px in /tmp/shots-ux (E2E_SHOTS to change).
 */
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { AXE_TAGS, storageState } from "./fixtures";

const SHOTS = process.env.E2E_SHOTS ?? path.join("/tmp", "shots-ux");
const UNKNOWN = "00000000-0000-4000-8000-0000000000e0";

/** Axe (no serious or critical violation) and screenshots at 1440 and 390 px. */
async function check(page: Page, name: string) {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForLoadState("networkidle");
    const r = await new AxeBuilder({ page }).withTags(AXE_TAGS).exclude("[data-sonner-toaster]").analyze();
    expect(
      r.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${name}@${width}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`),
    ).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

// Axe and full-page screenshots at two widths take long on a loaded machine.
test.setTimeout(180_000);

test.describe("payment entry in German", () => {
  test.use({ locale: "de-DE", storageState: storageState("treasurer") });

  test("amounts typed the German way, Required, plain messages while typing, proposed ids, an error summary", async ({
    page,
  }) => {
    await page.goto("/payments/new");
    await expect(page.getByTestId("amount-hint")).toHaveText("like 1.250,00");
    // A proposed end-to-end id, editable.
    const e2e = page.getByLabel("End-to-end id of row 1");
    await expect(e2e).toHaveValue(/^E2E-\d{8}-[0-9A-Z]{10}$/);
    const amount = page.getByLabel("Amount of row 1");
    await amount.fill("1.234,50");
    await expect(page.getByTestId("running-total")).toContainText("1.234,50");
    await amount.fill("12a");
    await expect(page.getByTestId("cell-error").first()).toHaveText("Enter an amount like 1.250,00");
    // The message follows the typing.
    await amount.fill("1 234,5");
    await expect(page.getByTestId("cell-error")).toHaveCount(0);
    await expect(page.getByTestId("running-total")).toContainText("1.234,50");
    // Ambiguous: the browser's language decides, and the field says how it read it.
    await amount.fill("2.500");
    await expect(page.getByTestId("amount-read-as")).toContainText("2.500,00");

    // Saving with empty cells: "Required" on each, and a summary at the top that links to them.
    await page.getByTestId("save-batch").click();
    const summary = page.getByTestId("error-summary");
    await expect(summary).toContainText("Row 1 · Creditor IBAN: Required");
    await expect(summary).toContainText("Row 1 · Creditor name: Required");
    await check(page, "payment-entry-errors");
    await summary.getByRole("link", { name: /Creditor IBAN/ }).click();
    await expect(page.getByLabel("Creditor IBAN of row 1")).toBeFocused();
    await page.getByLabel("Creditor IBAN of row 1").fill("NO93 8601 1117 948");
    await expect(summary).toContainText("Not a valid IBAN");
    await page.getByLabel("Creditor IBAN of row 1").fill("NO93 8601 1117 947");
    await page.getByLabel("Creditor name of row 1").fill("Fjord Konsult AS");
    await expect(summary).toBeHidden();
    // A second row gets its own id.
    await page.getByTestId("add-row").click();
    const second = await page.getByLabel("End-to-end id of row 2").inputValue();
    expect(second).toMatch(/^E2E-/);
    expect(second).not.toBe(await e2e.inputValue());
    await check(page, "payment-entry");
  });
});

test.describe("not found inside the shell", () => {
  test.use({ storageState: storageState("admin") });

  test("unknown batch, account, corporate group and address: the shell's not-found page with a way back", async ({
    page,
  }) => {
    for (const [url, back, what] of [
      [`/payments/${UNKNOWN}`, "Back to Payments", "This payment batch was not found"],
      ["/payments/not-a-batch", "Back to Payments", "This payment batch was not found"],
      [`/accounts/${UNKNOWN}`, "Back to Accounts", "This account was not found"],
      [`/organization/koncerner/${UNKNOWN}`, "Back to Organization", "This corporate group was not found"],
      [`/counterparties/${UNKNOWN}`, "Back to Counterparties", "This counterparty was not found"],
      [`/approvals/${UNKNOWN}`, "Back to Approvals", "This approval was not found"],
      ["/no-such-page", "Back to Overview", "Page not found"],
    ] as const) {
      // The page streams inside the shell (its loading state first), so the answer's status is the shell's 200;
      // the not-found page says what was not found and leads back.
      await page.goto(url);
      const nf = page.getByTestId("not-found");
      await expect(nf, url).toContainText(what);
      // Inside the shell: the navigation is there.
      await expect(page.getByRole("navigation").first()).toBeVisible();
      await expect(nf.getByTestId("not-found-back")).toHaveText(back);
    }
    await page.goto(`/payments/${UNKNOWN}`);
    await check(page, "not-found-batch");
    await page.getByTestId("not-found-back").click();
    await expect(page).toHaveURL(/\/payments$/);
  });
});

test.describe("the audit log in words", () => {
  test.use({ storageState: storageState("admin") });

  test("business events by default, actions in words with the code in the tooltip, sign-ins one click away", async ({
    page,
  }) => {
    await page.goto("/audit");
    await expect(page.getByTestId("audit-kind-business")).toHaveAttribute("aria-pressed", "true");
    await expect(page.locator('[data-testid="audit-row"][data-action="session.sign_in"]')).toHaveCount(0);
    const what = page.getByTestId("audit-what").first();
    await expect(what).not.toHaveText(/^[a-z_]+\.[a-z_.]+$/);
    expect(await what.getAttribute("title")).toMatch(/^[a-z_]+\.[a-z_.]+$/);
    await check(page, "audit-business");
    await page.getByTestId("audit-kind-sessions").click();
    await expect(page.locator('[data-testid="audit-row"][data-action="session.sign_in"]').first()).toBeVisible();
    await expect(page.getByTestId("audit-what").first()).toContainText("signed in");
  });
});
