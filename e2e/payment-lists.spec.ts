/**
 * The lists say what things are: the payments list shows each batch's reference, creator and approval progress
 * (the same words as the batch page's approval panel) and can show all the user's companies (a company-limited user
 * sees only theirs, with a company column); the overview's latest payment events name payee, amount, batch
 * reference and company; the creator turning down their own submitted batch withdraws it (the button says
 * Withdraw, the audit entry is marked withdrawn); the header's company switcher and user menu fit at 360 and 390 px
 * without cutting the country code. Screenshots (desktop and 390 px) go to e2e/screenshots/lists-*.png; axe-clean.
 */
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { AXE_TAGS, SCREENSHOTS, USERS, pageAs, scanAndShoot, writeHeaders } from "./fixtures";

const RUN = Date.now().toString(36).toUpperCase();
const PHONE = { width: 390, height: 844 };

/** axe (WCAG 2.2 AA and best practices) finds nothing at all on the page, whatever the impact. */
async function axeClean(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  const r = await new AxeBuilder({ page }).withTags(AXE_TAGS).exclude("[data-sonner-toaster]").analyze();
  expect(
    r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`),
  ).toEqual([]);
}

/** Company names of the signed-in user (the BFF's list, already narrowed to the user's companies). */
async function companyNames(page: Page): Promise<string[]> {
  const res = await page.request.get("/api/treasury/companies");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: { name: string }[] }).items.map((c) => c.name);
}

/** Creates a batch named `reference` (in the user's first company) as the page's user and submits it; returns its id. */
async function submittedBatch(page: Page, reference: string, e2e: string, amount = "1234.50"): Promise<string> {
  const companies = (await (await page.request.get("/api/treasury/companies")).json()) as { items: { id: string }[] };
  const created = await page.request.post("/api/treasury/payments/batches", {
    headers: writeHeaders(),
    data: {
      company_id: companies.items[0]?.id,
      currency: "NOK",
      reference,
      instructions: [
        {
          amount,
          currency: "NOK",
          // A payee no other spec pays, so no other spec's batch raises this one's risk signals.
          creditor_name: "Listeloep Mottaker AS",
          creditor_iban: "NO4615030012345",
          end_to_end_id: e2e,
        },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  const submitted = await page.request.post(`/api/treasury/payments/batches/${id}/submit`, {
    headers: writeHeaders(),
  });
  expect(submitted.status(), await submitted.text()).toBe(202);
  return id;
}

test("the payments list: reference, creator, approval progress as on the batch page, all companies", async ({
  browser,
}) => {
  const lead = await pageAs(browser, "lead");
  const reference = `Lists run ${RUN}`;
  // Above the four-eyes threshold: two approvals; another approver gives the first.
  const id = await submittedBatch(lead, reference, `LISTS-${RUN}-1`, "150000.00");
  const approver = await pageAs(browser, "approver");
  const queue = (await (await approver.request.get("/api/treasury/approvals/queue")).json()) as {
    items: { approval: { id: string; object_id: string } }[];
  };
  const approvalId = queue.items.find((i) => i.approval.object_id === id)?.approval.id;
  const approved = await approver.request.post(`/api/treasury/approvals/${approvalId}/approve`, {
    headers: writeHeaders(),
  });
  expect(approved.status(), await approved.text()).toBe(200);
  await approver.context().close();

  await lead.goto("/payments");
  const row = lead.locator(`[data-testid="batch-row"][data-batch-id="${id}"]`);
  await expect(row.getByTestId("batch-link")).toHaveText(reference);
  await expect(row.getByTestId("batch-creator")).toHaveText(USERS.lead.name);
  await expect(row.getByTestId("batch-approvals")).toHaveText(/^1 of [2-9] approvals$/);
  const progress = (await row.getByTestId("batch-approvals").textContent())?.trim() ?? "";
  // Seeded batches: named by their reference too.
  await expect(lead.getByTestId("batch-link").filter({ hasText: "Weekly suppliers" }).first()).toBeVisible();
  await expect(lead.getByRole("columnheader", { name: "Company" })).toHaveCount(0);
  await scanAndShoot(lead, "lists-payments");

  // The batch page's approval panel says the same, and its title is the reference.
  await row.getByTestId("batch-link").click();
  await lead.waitForURL(`**/payments/${id}`);
  await expect(lead.getByRole("heading", { level: 1 })).toHaveText(reference);
  await expect(lead.getByTestId("approval-headline")).toHaveText(progress);

  // All companies: the option is in the URL, a company column says whose, and rows of several companies show.
  await lead.goto("/payments");
  await lead.getByTestId("all-companies").check();
  await expect(lead).toHaveURL(/[?&]companies=all/);
  await expect(lead.getByText("Payment batches of all your companies")).toBeVisible();
  await expect(lead.getByRole("columnheader", { name: "Company" })).toBeVisible();
  await expect(lead.locator(`[data-testid="batch-row"][data-batch-id="${id}"]`)).toBeVisible();
  const mine = await companyNames(lead);
  await expect
    .poll(async () => new Set(await lead.getByTestId("batch-company").allTextContents()).size)
    .toBeGreaterThan(1);
  for (const name of await lead.getByTestId("batch-company").allTextContents()) expect(mine).toContain(name);
  await scanAndShoot(lead, "lists-payments-all");
  await axeClean(lead);
  // A reload keeps it (URL state).
  await lead.reload();
  await expect(lead.getByTestId("all-companies")).toBeChecked();
  await expect(lead.getByRole("columnheader", { name: "Company" })).toBeVisible();

  await lead.setViewportSize(PHONE);
  // The phone layout is drawn once its menu button shows (no fixed wait).
  await expect(lead.getByTestId("menu-button")).toBeVisible();
  await lead.screenshot({ path: path.join(SCREENSHOTS, "lists-payments-all-phone.png"), fullPage: true });
  await lead.context().close();
});

test("a company-limited user's all-companies list holds only their companies", async ({ browser }) => {
  const viewer = await pageAs(browser, "viewer");
  const mine = await companyNames(viewer);
  const everyone = await companyNames(await pageAs(browser, "treasurer"));
  expect(mine.length).toBeLessThan(everyone.length);
  await viewer.goto("/payments?companies=all");
  await expect(viewer.getByTestId("all-companies")).toBeChecked();
  await expect(viewer.getByTestId("batch-row").first()).toBeVisible();
  const shown = new Set(await viewer.getByTestId("batch-company").allTextContents());
  expect(shown.size).toBeGreaterThan(0);
  for (const name of shown) expect(mine).toContain(name);
  // The BFF refuses a page past what it reads per company, naming the field.
  const bad = await viewer.request.get("/api/treasury/payments/batches?companies=all&page=99&page_size=50");
  expect(bad.status()).toBe(400);
  expect(await bad.text()).toContain("page");
  await viewer.context().close();
});

test("Withdraw on one's own batch, audited as withdrawn", async ({ browser }) => {
  const lead = await pageAs(browser, "lead");
  const reference = `Withdraw me ${RUN}`;
  const id = await submittedBatch(lead, reference, `LISTS-${RUN}-W`);
  await lead.goto("/approvals");
  const row = lead.locator(`[data-testid="approval-row"][data-batch-id="${id}"]`);
  await expect(row.getByRole("button", { name: reference })).toBeVisible();
  await expect(row.getByTestId("reject")).toHaveText("Withdraw");
  await row.getByTestId("reject").click();
  const dialog = lead.getByRole("dialog");
  await expect(dialog.getByTestId("dialog-batch")).toHaveText(reference);
  await dialog.getByTestId("reject-reason").fill("Raised twice by mistake");
  await lead.screenshot({ path: path.join(SCREENSHOTS, "lists-withdraw-dialog.png") });
  await dialog.getByTestId("confirm-decision").click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0, { timeout: 20_000 });

  const audit = (await (await lead.request.get("/api/audit?action=approval.reject&limit=50")).json()) as {
    items: { user_email: string; details: Record<string, unknown> }[];
  };
  const entry = audit.items.find((e) => e.details.batch_id === id);
  expect(entry, JSON.stringify(audit.items.slice(0, 3))).toMatchObject({
    user_email: USERS.lead.email,
    details: { batch_id: id, withdrawn: true, reason: "Raised twice by mistake" },
  });
  // The batch page and the payments list say withdrawn.
  await lead.goto(`/payments/${id}`);
  await expect(lead.getByTestId("approval-headline")).toHaveText("Withdrawn by its creator");
  await lead.goto("/payments");
  await expect(
    lead.locator(`[data-testid="batch-row"][data-batch-id="${id}"]`).getByTestId("batch-approvals"),
  ).toHaveText("Withdrawn by its creator");
  await lead.context().close();
});

test("the overview's latest payment events name payee, amount, batch reference and company", async ({ browser }) => {
  const treasurer = await pageAs(browser, "treasurer");
  await treasurer.goto("/");
  const company = await treasurer.getByTestId("company-switcher-name").textContent();
  const events = treasurer.getByTestId("events").locator("li");
  await expect(events.first()).toBeVisible();
  const n = await events.count();
  const named: string[] = [];
  for (let i = 0; i < n; i++) {
    const subject = events.nth(i).getByTestId("event-subject");
    // payee · amount with its currency · batch · company (never "instruction 3d0dae1a")
    await expect(subject).not.toHaveText(/^instruction /);
    await expect(subject).toHaveText(/^.+ · .*[A-Z]{3}.*\d.* · .+ · .+$/);
    await expect(subject).toContainText(company ?? "—");
    const batch = (await subject.getByTestId("event-batch").textContent()) ?? "";
    // A batch is named by its reference; only one without a reference by "Batch" and its short id.
    if (!/^Batch [0-9a-f]{8}$/.test(batch)) named.push(batch);
  }
  // The demo's processed batches all carry references.
  expect(named.length).toBeGreaterThan(0);
  await axeClean(treasurer);
  await treasurer.getByTestId("events").scrollIntoViewIfNeeded();
  await treasurer.getByTestId("events").screenshot({ path: path.join(SCREENSHOTS, "lists-overview-events.png") });
  await treasurer.setViewportSize(PHONE);
  await treasurer.getByTestId("events").scrollIntoViewIfNeeded();
  await treasurer.getByTestId("events").screenshot({ path: path.join(SCREENSHOTS, "lists-overview-events-phone.png") });
  const first = events.first().getByTestId("event-batch");
  const ref = (await first.textContent()) ?? "";
  await first.click();
  await treasurer.waitForURL(/\/payments\/[0-9a-f-]{36}$/);
  await expect(treasurer.getByRole("heading", { level: 1 })).toHaveText(ref);
  await treasurer.context().close();
});

for (const width of [360, 390]) {
  test(`the header's company switcher and user menu fit at ${width} px, the country code not cut`, async ({
    browser,
  }) => {
    const ctx = await browser.newContext({
      storageState: path.join("e2e", ".auth", process.env.E2E_PORT ?? "3210", "lead.json"),
      viewport: { width, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    const page = await ctx.newPage();
    await page.goto("/payments");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const names = await companyNames(page);
    // Every company, one after another: the longest names too.
    const options = await page
      .getByTestId("company-switcher")
      .locator("option")
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    for (const value of options.slice(0, 6)) {
      await page.getByTestId("company-switcher").selectOption(value);
      await expect(page.getByTestId("company-switcher")).toHaveValue(value);
      await expect(page.getByTestId("company-switcher")).toBeEnabled();
      const m = await page.evaluate(() => {
        const box = (id: string) => {
          const el = document.querySelector(`[data-testid="${id}"]`);
          if (!el) return null;
          const r = el.getBoundingClientRect();
          return { left: r.left, right: r.right, scroll: el.scrollWidth, client: el.clientWidth, text: el.textContent };
        };
        const signOut = [...document.querySelectorAll("header button")].find((b) => b.textContent === "Sign out");
        const so = signOut?.getBoundingClientRect();
        return {
          name: box("company-switcher-name"),
          country: box("company-switcher-country"),
          switcher: box("company-switcher-box"),
          currency: box("reporting-currency"),
          signOut: so ? { left: so.left, right: so.right, width: so.width, height: so.height } : null,
          page: document.documentElement.scrollWidth,
        };
      });
      const label = JSON.stringify(m);
      expect(m.name?.text && names.includes(m.name.text), label).toBe(true);
      // Neither the name nor the country code is cut: no overflow, and each lies within the switcher.
      expect(m.name?.scroll, label).toBeLessThanOrEqual(m.name?.client ?? 0);
      expect(m.country?.scroll, label).toBeLessThanOrEqual(m.country?.client ?? 0);
      expect(m.country?.text, label).toMatch(/^[A-Z]{2}$/);
      expect(m.country?.right ?? 999, label).toBeLessThanOrEqual(m.switcher?.right ?? 0);
      // The switcher, the currency switch and sign-out lie side by side on the screen, sign-out a 44 px target.
      expect(m.switcher?.right ?? 999, label).toBeLessThanOrEqual(m.currency?.left ?? 0);
      expect(m.signOut?.right ?? 999, label).toBeLessThanOrEqual(width);
      expect(m.signOut?.width ?? 0, label).toBeGreaterThanOrEqual(44);
      expect(m.page, label).toBeLessThanOrEqual(width);
    }
    await page.screenshot({ path: path.join(SCREENSHOTS, `lists-header-${width}.png`) });
    await scanAndShoot(page, `lists-payments-phone-${width}`);
    await axeClean(page);
    await ctx.close();
  });
}
