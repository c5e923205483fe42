/**
 * Risk signals an approver can act on: a second payment of the same amount to
 * the same IBAN is flagged "possible duplicate" to its creator (batch page,
 * before submitting) and to the approvers (queue badge, expanded row, dialog);
 * approving it needs the acknowledgement tick, and the dialog names the batch,
 * company, debtor account, totals, count and the approvals so far. A batch
 * above the debtor account's available balance is flagged "insufficient
 * funds". Screenshots at desktop width and at 390 px.
 */
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { USERS, createBatchVia, pageAs as as, scanAndShoot, writeHeaders as write } from "./fixtures";

const SHOTS = process.env.E2E_SHOTS ?? path.join("/tmp", "shots-k");
// A payee only this spec pays, so its payment history holds only what this spec created.
const IBAN = "NO7315037770016";

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** The currency of the page user's first company's first active account (its batches have a debtor account). */
async function accountCurrency(page: Page): Promise<string> {
  const r = (await (await page.request.get("/api/treasury/accounts?status=active")).json()) as {
    items: { currency: string }[];
  };
  const c = r.items[0]?.currency;
  if (!c) throw new Error("the company has no active account");
  return c;
}

async function submit(page: Page, id: string) {
  const r = await page.request.post(`/api/treasury/payments/batches/${id}/submit`, { headers: write() });
  expect(r.status(), await r.text()).toBe(202);
}

test("a duplicate of an earlier payment is flagged to creator and approver and needs the acknowledgement", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const treasurer = await as(browser, "treasurer");
  await treasurer.goto("/payments");
  const run = Date.now();
  const ccy = await accountCurrency(treasurer);
  // Above the four-eyes threshold: two approvals, so the dialog can show one approval so far.
  const first = await createBatchVia(treasurer, ccy, [
    { amount: "150000.00", creditor_name: "Fjordkraft AS", creditor_iban: IBAN, end_to_end_id: `DUP-A-${run}` },
  ]);
  await submit(treasurer, first);
  const second = await createBatchVia(treasurer, ccy, [
    { amount: "150000.00", creditor_name: "Fjordkraft AS", creditor_iban: IBAN, end_to_end_id: `DUP-B-${run}` },
  ]);

  // The creator sees it on the batch page before submitting.
  await treasurer.goto(`/payments/${second}`);
  const panel = treasurer.getByTestId("risk-signals");
  await expect(panel.locator('[data-testid="risk-signal"][data-code="possible_duplicate"]')).toBeVisible();
  await expect(treasurer.getByTestId("submit-batch")).toBeVisible();
  const dup = panel.locator('[data-testid="risk-signal"][data-code="possible_duplicate"]').first();
  // One line per signal; its evidence folded under "Details".
  await expect(dup.getByTestId("risk-evidence")).toBeHidden();
  await dup.locator("summary").click();
  await expect(dup.getByTestId("risk-evidence")).toContainText(first.slice(0, 8));
  await dup.getByTestId("payee-history-toggle").click();
  // The earlier payment, not the batch's own instruction.
  await expect(dup.getByTestId("payee-history").locator("tr")).toHaveCount(1);
  await expect(dup.getByTestId("payee-history")).toContainText(first.slice(0, 8));
  await scanAndShoot(treasurer, "risk-batch-creator");
  await shoot(treasurer, "batch-creator-desktop");
  await treasurer.setViewportSize({ width: 390, height: 844 });
  await shoot(treasurer, "batch-creator-390");
  await submit(treasurer, second);

  // A first approver approves through the BFF: without the acknowledgement it is refused, with it counted.
  const aksel = await as(browser, "approver2");
  const queue = (await (await aksel.request.get("/api/treasury/approvals/queue")).json()) as {
    items: { approval: { id: string; object_id: string }; risk: { requires_acknowledgement: string[] } | null }[];
  };
  const item = queue.items.find((i) => i.approval.object_id === second);
  expect(item?.risk?.requires_acknowledgement).toContain("possible_duplicate");
  const refused = await aksel.request.post(`/api/treasury/approvals/${item?.approval.id}/approve`, {
    headers: write(),
  });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toMatchObject({ details: { missing: expect.arrayContaining(["possible_duplicate"]) } });
  const counted = await aksel.request.post(`/api/treasury/approvals/${item?.approval.id}/approve`, {
    headers: write(),
    data: { acknowledged_signals: item?.risk?.requires_acknowledgement },
  });
  expect(counted.status(), await counted.text()).toBe(200);

  // The second approver: badge on the row, signals in the expanded row, the dialog with everything.
  const anna = await as(browser, "approver");
  await anna.goto("/approvals");
  const row = anna.locator(`[data-testid="approval-row"][data-batch-id="${second}"]`);
  await expect(row.locator('[data-testid="risk-badges"] [data-code="possible_duplicate"]')).toBeVisible();
  await row.getByRole("button", { name: second.slice(0, 8) }).click();
  await expect(anna.getByRole("region", { name: `Risk signals of batch ${second.slice(0, 8)}` })).toContainText(
    "may have been paid already",
  );
  await scanAndShoot(anna, "risk-queue-expanded");
  await shoot(anna, "queue-expanded-desktop");
  await anna.setViewportSize({ width: 390, height: 844 });
  await shoot(anna, "queue-expanded-390");
  await anna.setViewportSize({ width: 1360, height: 860 });
  await row.getByTestId("approve").click();
  const dialog = anna.getByTestId("decision-dialog");
  await expect(dialog.getByTestId("dialog-batch")).toContainText(second.slice(0, 8));
  await expect(dialog.getByTestId("dialog-company")).not.toBeEmpty();
  await expect(dialog.getByTestId("dialog-debtor")).not.toHaveText("—");
  await expect(dialog.getByTestId("dialog-total")).toContainText("150,000.00");
  await expect(dialog.getByTestId("dialog-count")).toHaveText("1");
  await expect(dialog.getByTestId("dialog-approvals")).toContainText(`1 of 2: approved by ${USERS.approver2.name} at`);
  await expect(dialog.locator('[data-testid="risk-signal"][data-code="possible_duplicate"]')).toBeVisible();
  const confirm = dialog.getByTestId("confirm-decision");
  await expect(confirm).toBeDisabled();
  // The acknowledgement and the buttons stay in the dialog's sticky footer, in view however long the body is.
  await expect(dialog.getByTestId("modal-footer").getByTestId("acknowledgements")).toBeInViewport();
  await expect(confirm).toBeInViewport();
  await scanAndShoot(anna, "risk-approve-dialog");
  await shoot(anna, "dialog-desktop");
  await anna.setViewportSize({ width: 390, height: 844 });
  await shoot(anna, "dialog-390");
  await expect(confirm).toBeInViewport();
  await anna.setViewportSize({ width: 1360, height: 860 });
  for (const box of await dialog.locator('[data-testid^="ack-"]').all()) await box.check();
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
});

test("bulk approve leaves a high-risk batch out; a batch above the available balance is flagged", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const treasurer = await as(browser, "treasurer");
  await treasurer.goto("/payments");
  const big = await createBatchVia(treasurer, await accountCurrency(treasurer), [
    {
      amount: "999999999.00",
      creditor_name: "Fjordkraft AS",
      creditor_iban: IBAN,
      end_to_end_id: `BIG-${Date.now()}`,
    },
  ]);
  await treasurer.goto(`/payments/${big}`);
  const funds = treasurer.locator('[data-testid="risk-signal"][data-code="insufficient_funds"]');
  await expect(funds).toBeVisible();
  await expect(funds).toContainText("above the available balance");
  await expect(treasurer.getByTestId("risk-debtor")).toContainText("available");
  await submit(treasurer, big);

  const anna = await as(browser, "approver");
  await anna.goto("/approvals");
  const row = anna.locator(`[data-testid="approval-row"][data-batch-id="${big}"]`);
  await expect(row.locator('[data-code="insufficient_funds"]')).toBeVisible();
  await row.getByRole("checkbox").check();
  await anna.getByTestId("bulk-approve").click();
  await expect(row.getByTestId("row-result")).toContainText("Not approved in bulk");
  await expect(row).toHaveCount(1);
});
