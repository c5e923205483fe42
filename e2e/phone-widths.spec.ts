/**
 * Every route at phone widths, the money first (docs/architecture.md#phones): at 360 and 390 px each page of the
 * dashboard, the detail and sub-pages too, opened as a role that may see it, is no wider than the screen
 * (`document.documentElement.scrollWidth` within the width) and shows each amount (`[data-amount]`) whole, inside the
 * screen and inside any box around it that clips or scrolls sideways; the list pages show at least one. The CSV
 * import brings its first failing cell into view on a phone. axe (WCAG 2.2 AA and best practices) finds nothing on the
 * sign-in page and these pages at 390 and 1440 px. On the admin lists (policies, categories, auto-confirm rules, users,
 * bank connections) every button and link of the page is in view too: a row's edit and delete need no sideways scroll. Full-page screenshots go to
 * e2e/screenshots as phone-<width>-<page>.png.
 */
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { AXE_TAGS, SCREENSHOTS, createBatchVia, pageAs, storageState, type RoleKey } from "./fixtures";
import { actionsOutOfView, amountsOutOfView, overflow } from "./phone-helpers";

const SHOTS = SCREENSHOTS;
const PHONES = [
  { width: 390, height: 844 },
  { width: 360, height: 740 },
] as const;
const DESKTOP = { width: 1440, height: 900 };

/** A route, the role that opens it, and whether the page must show money (a list or a figure page). */
interface Route {
  name: string;
  path: string;
  role: RoleKey;
  money?: boolean;
  /** An admin list: each row's actions must be in view without a sideways scroll. */
  actions?: boolean;
}

/** The ids the detail pages need: a demo account, a batch of the spec's own (editable), a corporate group. */
async function detailIds(browser: Browser): Promise<{ account: string; batch: string; group: string | null }> {
  const page = await pageAs(browser, "treasurer");
  await page.goto("/accounts");
  const account = (await page.getByTestId("account-row").first().getAttribute("data-account-id")) ?? "";
  const batch = await createBatchVia(page, "NOK", [
    {
      amount: "1234567.89",
      creditor_name: "Narrow Screens Wholesale Partners International Ltd",
      creditor_iban: "GB82WEST12345698765432",
      end_to_end_id: `PW-${Date.now().toString(36).toUpperCase()}`,
    },
  ]);
  await page.goto("/organization");
  await page.waitForLoadState("networkidle");
  const links = page.locator('a[href^="/organization/koncerner/"]');
  const href = (await links.count()) > 0 ? await links.first().getAttribute("href") : null;
  await page.context().close();
  return { account, batch, group: href?.split("/").pop() ?? null };
}

function routes(ids: { account: string; batch: string; group: string | null }): Route[] {
  const list: Route[] = [
    { name: "overview", path: "/", role: "treasurer", money: true },
    { name: "accounts", path: "/accounts", role: "treasurer", money: true },
    { name: "account", path: `/accounts/${ids.account}`, role: "treasurer", money: true },
    { name: "transactions", path: "/transactions", role: "treasurer", money: true },
    { name: "reports-cashflow", path: "/reports/cashflow", role: "treasurer", money: true },
    { name: "reports-positions", path: "/reports/positions", role: "treasurer", money: true },
    { name: "reports-forecast", path: "/reports/forecast", role: "treasurer" },
    { name: "payments", path: "/payments", role: "treasurer", money: true },
    { name: "batch", path: `/payments/${ids.batch}`, role: "treasurer", money: true },
    { name: "batch-edit", path: `/payments/${ids.batch}/edit`, role: "treasurer" },
    { name: "batch-new", path: "/payments/new", role: "treasurer" },
    { name: "counterparties", path: "/counterparties", role: "treasurer" },
    { name: "reconciliation", path: "/reconciliation", role: "treasurer" },
    { name: "unmatched", path: "/reconciliation/unmatched", role: "treasurer" },
    { name: "organization", path: "/organization", role: "treasurer" },
    { name: "profile", path: "/profile", role: "treasurer" },
    { name: "notifications", path: "/notifications", role: "approver" },
    { name: "not-found", path: "/no-such-page", role: "treasurer" },
    { name: "approvals", path: "/approvals", role: "approver" },
    { name: "audit", path: "/audit", role: "approver" },
    { name: "webhooks", path: "/webhooks", role: "admin" },
    { name: "policies", path: "/policies", role: "admin", actions: true },
    { name: "categories", path: "/categories", role: "admin", actions: true },
    { name: "reconciliation-rules", path: "/reconciliation-rules", role: "admin", actions: true },
    { name: "statements", path: "/statements", role: "admin" },
    { name: "users", path: "/users", role: "admin", actions: true },
    { name: "bank-connections", path: "/bank-connections", role: "admin", actions: true },
  ];
  if (ids.group) list.push({ name: "group", path: `/organization/koncerner/${ids.group}`, role: "treasurer" });
  return list;
}

/**
 * Opens a route and waits until its heading is there, its data has loaded and, on a page that must show money, the
 * first amount is displayed. "networkidle" alone is not enough there: a list that renders on the client (the
 * transactions' virtualized rows, which need their scroll box measured) can show its rows a moment after the last
 * request on a busy machine, and the page was measured in between ("no amount shown").
 */
async function open(page: Page, r: Route): Promise<void> {
  await page.goto(r.path);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  if (r.money) await expect(page.locator("[data-amount]").filter({ visible: true }).first()).toBeVisible();
}

/** Every axe violation (any impact), one line each. */
async function axe(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).withTags(AXE_TAGS).exclude("[data-sonner-toaster]").analyze();
  return r.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 3)
        .join(" | ")}`,
  );
}

let ids: { account: string; batch: string; group: string | null };
test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  ids = await detailIds(browser);
});

/** One route at one phone width: its width, its amounts, axe at 390 px, and a screenshot. */
async function checkPhone(page: Page, r: Route, width: number): Promise<string[]> {
  const problems: string[] = [];
  await open(page, r);
  const o = await overflow(page);
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  if (scroll > width || o.body > 0) problems.push(`the page is ${scroll}px wide on a ${width}px screen (${o.culprit})`);
  if (o.main > 0) problems.push(`the main area scrolls sideways by ${o.main}px (${o.culprit})`);
  const money = await amountsOutOfView(page);
  for (const c of money.cut) problems.push(`amount ${c}`);
  if (r.money && money.shown === 0) problems.push("no amount shown");
  if (r.actions) for (const c of (await actionsOutOfView(page)).cut) problems.push(`action ${c}`);
  if (width === 390) for (const v of await axe(page)) problems.push(`axe ${v}`);
  await page.screenshot({ path: path.join(SHOTS, `phone-${width}-${r.name}.png`), fullPage: true });
  return problems;
}

// One test per route and width, so that a slow page has its own time and each failure names its page. The detail
// pages' ids are known only once the spec runs: routes are listed with placeholder ids and resolved in the test.
const PLACEHOLDER = { account: "ACCOUNT", batch: "BATCH", group: "GROUP" };
for (const template of routes(PLACEHOLDER)) {
  const resolve = () => routes(ids).find((r) => r.name === template.name);
  for (const size of PHONES) {
    test.describe(`${size.width} px`, () => {
      test.use({ viewport: size, hasTouch: true, isMobile: true, storageState: storageState(template.role) });
      test(`${template.name} as ${template.role}: no wider than the screen, every amount whole in view`, async ({
        page,
      }) => {
        test.setTimeout(180_000);
        const r = resolve();
        test.skip(!r, "the demo has no corporate group");
        expect(await checkPhone(page, r as Route, size.width)).toEqual([]);
      });
    });
  }
  test.describe("1440 px", () => {
    test.use({ viewport: DESKTOP, storageState: storageState(template.role) });
    test(`${template.name} as ${template.role}: axe finds nothing`, async ({ page }) => {
      test.setTimeout(180_000);
      const r = resolve();
      test.skip(!r, "the demo has no corporate group");
      await open(page, r as Route);
      expect(await axe(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `desktop-${template.name}.png`), fullPage: true });
    });
  });
}

test.describe("the sign-in page", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  for (const size of [PHONES[0], PHONES[1], DESKTOP]) {
    test(`at ${size.width} px: axe finds nothing, nothing is wider than the screen`, async ({ page }) => {
      await page.setViewportSize(size);
      await page.goto("/login");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await axe(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      await page.screenshot({ path: path.join(SHOTS, `signin-${size.width}.png`), fullPage: true });
    });
  }
});

test.describe("the CSV import on a phone", () => {
  test.use({ viewport: PHONES[0], hasTouch: true, isMobile: true, storageState: storageState("treasurer") });

  test("the first failing cell, far down the file, is brought into view", async ({ page }) => {
    await page.goto("/payments/new");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const run = Date.now().toString(36).toUpperCase();
    const good = (n: number) => `Fjordkraft AS;NO9386011117947;${n}0.50;PW-${run}-${n}`;
    const csv = [
      "creditor_name;creditor_iban;amount;end_to_end_id",
      ...[1, 2, 3, 4, 5, 6, 7, 8].map(good),
      `Broken Payee AS;NO93 8601 1117 948;99.00;PW-${run}-9`,
      good(10),
    ].join("\n");
    await page.getByTestId("open-csv").click();
    await page
      .getByTestId("csv-file")
      .setInputFiles({ name: "phone.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await expect(page.getByTestId("csv-summary")).toContainText("1 of 10 rows have problems");
    const bad = page.getByLabel("IBAN of file row 10");
    await expect(bad).toHaveAttribute("aria-invalid", "true");
    await expect(bad).toBeInViewport();
    expect((await overflow(page)).body).toBeLessThanOrEqual(0);
    // Each card's fields are labelled from the table's header: Row, then the file's columns in its order.
    const cells = page.getByTestId("csv-row").first().locator("td");
    await expect(cells.nth(1)).toHaveAttribute("data-label", "Creditor name");
    await expect(cells.nth(3)).toHaveAttribute("data-label", "Amount");
    await page.screenshot({ path: path.join(SHOTS, "phone-390-csv-preview.png") });
  });
});
