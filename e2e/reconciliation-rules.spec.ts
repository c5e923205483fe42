/**
 * Auto-confirm rules end to end: an admin writes a rule on the rules page (bad input named per field; whether undo
 * is available said on the page); when a treasurer opens the review, the proposals meeting it are confirmed in the
 * rule's name, and the Decided tab says "Confirmed by rule <name>" with an Undo button; Undo puts the match back in
 * the review (the rule leaves it there) and is audited. Axe scans and screenshots of both pages.
 */
import { expect, request as playwrightRequest, test } from "@playwright/test";
import Decimal from "decimal.js";
import { BASE_URL } from "../playwright.config";
import { pageAs, scanAndShoot, settledPayment, storageState } from "./fixtures";
import { openDecidedRow } from "./decided-tab";

interface ReviewRow {
  match: { id: string; score: number; company_id: string; transaction_id: string; payment_instruction_id: string };
  company_name: string;
  instruction: { amount: string; currency: string; end_to_end_id: string } | null;
  transaction: { amount: string; currency: string; end_to_end_id?: string | null } | null;
}

test("an admin's auto-confirm rule confirms a proposal in its name; a treasurer undoes it", async ({ browser }) => {
  test.setTimeout(180_000);
  const treasurerApi = await playwrightRequest.newContext({
    baseURL: BASE_URL,
    storageState: storageState("treasurer"),
  });
  // A proposal of the spec's own (the demo's may all be decided by the bulk spec running alongside): a payment the
  // bank settles, whose booking carries its end-to-end id and amount, so the matcher proposes the pair at 100.
  const stamp = Date.now();
  const own = await settledPayment(browser, {
    amount: `${(stamp % 9000) + 1000}.${String(stamp % 97).padStart(2, "0")}`,
    creditor_name: "Regelbasert Avstemming AS",
    creditor_iban: "NO9386011117947",
    end_to_end_id: `E2E-RULE-${stamp.toString(36)}`,
  });
  const readProposed = async () => {
    const out: ReviewRow[] = [];
    for (let p = 1; ; p++) {
      const page = (await (
        await treasurerApi.get(`/api/treasury/reconciliation/review?tab=proposed&page=${p}`)
      ).json()) as { items: ReviewRow[]; has_next: boolean };
      out.push(...page.items);
      if (!page.has_next) return out;
    }
  };
  let found: ReviewRow | undefined;
  await expect(async () => {
    found = (await readProposed()).find((r) => r.match.payment_instruction_id === own.instructionId);
    expect(found, "the proposal of the spec's own payment").toBeDefined();
  }).toPass({ timeout: 60_000 });
  const target = found;
  if (!target?.instruction) throw new Error("the proposal has no instruction");
  const exact = (r: ReviewRow) =>
    !!r.instruction &&
    !!r.transaction &&
    r.instruction.currency === r.transaction.currency &&
    new Decimal(r.instruction.amount).eq(r.transaction.amount);
  const sameE2e = (r: ReviewRow) => !!r.instruction && r.transaction?.end_to_end_id === r.instruction.end_to_end_id;
  const e2e = target.instruction.end_to_end_id;
  const ruleName = `E2E exact ${Date.now().toString(36)}`;

  const admin = await pageAs(browser, "admin");
  await admin.goto("/reconciliation-rules");
  await expect(admin.getByRole("heading", { name: "Auto-confirm rules" })).toBeVisible();
  await expect(admin.getByTestId("undo-availability")).toContainText("can undo an automatic confirmation for 24 hours");
  // Bad input: each field named.
  await admin.locator('input[name="min_score"]').fill("150");
  await admin.locator('input[name="currency"]').fill("kroner");
  await admin.getByTestId("save-auto-rule").click();
  const err = admin.getByTestId("auto-rule-error");
  await expect(err).toContainText("Name");
  await expect(err).toContainText("Minimum score");
  await expect(err).toContainText("Currency");
  // The rule: this company, this currency, at most this amount (so it confirms few proposals besides the target).
  await admin.locator('input[name="name"]').fill(ruleName);
  await admin.locator('input[name="min_score"]').fill(String(target.match.score));
  if (!exact(target)) await admin.locator('input[name="exact_amount"]').uncheck();
  if (!sameE2e(target)) await admin.locator('input[name="end_to_end_id"]').uncheck();
  await admin.locator('select[name="company_id"]').selectOption(target.match.company_id);
  await admin.locator('input[name="currency"]').fill(target.instruction.currency);
  await admin.locator('input[name="max_amount"]').fill(target.instruction.amount);
  await admin.getByTestId("save-auto-rule").click();
  const row = admin.getByTestId("auto-rule-row").filter({ hasText: ruleName });
  await expect(row).toBeVisible();
  await expect(row).toContainText(`score ≥ ${target.match.score}`);
  await expect(row).toContainText(`${target.company_name} · ${target.instruction.currency}`);
  await scanAndShoot(admin, "reconciliation-rules-admin");

  // The treasurer opens the review: the rule runs; the target is no longer to review.
  const page = await pageAs(browser, "treasurer");
  await page.goto("/reconciliation");
  await expect(page.getByRole("heading", { name: "Reconciliation" })).toBeVisible();
  await expect(page.locator(`[data-testid="match-row"][data-e2e="${e2e}"]`)).toHaveCount(0);
  // On whichever page of the tab decisions made alongside have pushed it to.
  const decided = page.locator(`[data-testid="match-row"][data-e2e="${e2e}"]`);
  await openDecidedRow(page, (item) => item.instruction?.end_to_end_id === e2e, decided);
  await expect(decided.getByTestId("auto-confirmed")).toContainText(`Confirmed by rule ${ruleName}`);
  await expect(decided.getByTestId("match-reviewer")).toHaveCount(0);
  const undo = decided.getByTestId("undo-auto-confirm");
  await expect(undo).toBeVisible();
  await scanAndShoot(page, "reconciliation-rules-decided");

  // A viewer sees who confirmed it but has no Undo.
  const viewer = await pageAs(browser, "viewer");
  await viewer.goto("/reconciliation?tab=decided");
  const seen = viewer.locator(`[data-testid="match-row"][data-e2e="${e2e}"]`);
  if (await seen.count()) await expect(seen.getByTestId("undo-auto-confirm")).toHaveCount(0);

  await undo.click();
  await expect(decided).toHaveCount(0, { timeout: 20_000 });
  // Back in the review, and the rule leaves it there on the next read.
  await page.goto("/reconciliation");
  await expect(page.locator(`[data-testid="match-row"][data-e2e="${e2e}"]`)).toBeVisible();
  await page.reload();
  await expect(page.locator(`[data-testid="match-row"][data-e2e="${e2e}"]`)).toBeVisible();

  const adminApi = await playwrightRequest.newContext({ baseURL: BASE_URL, storageState: storageState("admin") });
  const audit = (await (await adminApi.get("/api/audit?action=reconciliation_match.reopen&limit=100")).json()) as {
    items: { object_id: string; user_email: string; details: { auto_rule?: { name: string } } }[];
  };
  const entry = audit.items.find((e) => e.object_id === target.match.id);
  expect(entry).toMatchObject({ user_email: "treasurer@demo.local", details: { auto_rule: { name: ruleName } } });
  const confirms = (await (await adminApi.get("/api/audit?action=reconciliation_match.confirm&limit=500")).json()) as {
    items: { object_id: string; user_email: string }[];
  };
  expect(confirms.items.find((e) => e.object_id === target.match.id)?.user_email).toBe(`rule:${ruleName}`);

  // Clean up: the rule is deleted (its confirmations stay).
  admin.on("dialog", (d) => void d.accept());
  await admin.getByRole("button", { name: `Delete ${ruleName}` }).click();
  await expect(row).toHaveCount(0);
});
