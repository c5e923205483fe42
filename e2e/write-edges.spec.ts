/**
 * The edges of the write views on the production
 * build with the real treasury-api: webhook edit, rotate (the new secret
 * shown once, old and new both signing), deactivate / activate and delete
 * with a confirmation; a 409 from a stale page shown in words; server field
 * errors landing on the right field and cells of the new-batch editor (a remittance's text and RF reference among
 * them); a
 * match rejected with a reason that the decided tab and the audit log show.
 * Screenshots: e2e/screenshots/edges-*.png.
 */
import { expect, test, type Page } from "@playwright/test";
import { startLoopbackReceiver, type LoopbackReceiver } from "@treasury/test-support/loopback-receiver";
import { createBatchVia, pageAs, scanAndShoot, USERS } from "./fixtures";

test.setTimeout(120_000);

const RUN = Date.now().toString(36).toUpperCase();
const shoot = (page: Page, name: string) => scanAndShoot(page, `edges-${name}`);

let receiver: LoopbackReceiver;
test.beforeAll(async () => {
  receiver = await startLoopbackReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

/** Fills one editor row with a valid instruction. */
async function fillRow(page: Page, n: number, row: { name: string; iban: string; e2e: string; amount: string }) {
  await page.getByLabel(`Creditor name of row ${n}`).fill(row.name);
  await page.getByLabel(`Creditor IBAN of row ${n}`).fill(row.iban);
  await page.getByLabel(`End-to-end id of row ${n}`).fill(row.e2e);
  await page.getByLabel(`Amount of row ${n}`).fill(row.amount);
}

/**
 * Answers the page's next batch create (POST) with the BFF's 400 naming `errors` (path → messages), as the BFF words
 * it ("Invalid body: <first path> <first message> (and N more)") with `requestId`; later requests go through.
 */
async function scriptFieldErrors(page: Page, requestId: string, errors: Record<string, string[]>) {
  const [first, ...rest] = Object.entries(errors);
  const more = rest.length ? ` (and ${rest.length} more)` : "";
  let scripted = true;
  await page.route("**/api/treasury/payments/batches", async (route) => {
    if (!scripted || route.request().method() !== "POST") return route.fallback();
    scripted = false;
    await route.fulfill({
      status: 400,
      contentType: "application/json",
      headers: { "X-Request-ID": requestId },
      body: JSON.stringify({
        error: "validation_error",
        message: `Invalid body: ${first?.[0]} ${first?.[1][0]}${more}`,
        details: { errors },
        request_id: requestId,
      }),
    });
  });
}

test(
  "admin edits a webhook, rotates its secret (old and new both sign), deactivates, activates and deletes " + "it",
  async ({ browser }) => {
    const page = await pageAs(browser, "admin");
    const firstUrl = `${receiver.url}/edges/${RUN}`;
    const url = `${firstUrl}/v2`;
    await page.goto("/webhooks");
    await page.getByTestId("new-webhook").click();
    await page.getByTestId("webhook-url").fill(firstUrl);
    await page.getByTestId("save-webhook").click();
    const first = (await page.getByTestId("webhook-secret").textContent()) ?? "";
    expect(first).toMatch(/^whsec_/);
    receiver.secrets.set("first", first);
    await page.getByRole("button", { name: "I have stored the secret" }).click();
    const endpoints = (await (await page.request.get("/api/treasury/webhooks?page_size=200")).json()) as {
      items: { id: string; url: string }[];
    };
    const id = endpoints.items.find((e) => e.url === firstUrl)?.id ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    // Edit: the dialog opens with the endpoint's values; a new URL and one more event kind are saved.
    await page
      .locator(`[data-testid="webhook-row"][data-url="${firstUrl}"]`)
      .getByRole("button", { name: "Edit" })
      .click();
    const form = page.getByTestId("webhook-form");
    await expect(form.getByTestId("webhook-url")).toHaveValue(firstUrl);
    await form.getByTestId("webhook-url").fill("ftp://not-http");
    await expect(form.getByTestId("webhook-url")).toHaveAttribute("aria-invalid", "true");
    await expect(form).toContainText("URL must use http or https");
    await form.getByTestId("webhook-url").fill(url);
    await expect(form.getByTestId("webhook-url")).not.toHaveAttribute("aria-invalid", "true");
    await form.getByLabel("reconciliation.match.updated").check();
    await shoot(page, "webhook-edit");
    await form.getByTestId("save-webhook").click();
    await expect(form).toHaveCount(0);
    const row = page.locator(`[data-testid="webhook-row"][data-url="${url}"]`);
    await expect(row).toContainText("reconciliation.match.updated");
    const edited = (await (await page.request.get(`/api/treasury/webhooks/${id}`)).json()) as {
      url: string;
      events: string[];
    };
    expect(edited.url).toBe(url);
    expect(edited.events).toEqual(expect.arrayContaining(["payment.status.updated", "reconciliation.match.updated"]));

    // Rotate: confirmed first, the new secret shown once, then gone from the page and from every answer.
    await row.getByRole("button", { name: "Rotate secret" }).click();
    await expect(page.getByRole("dialog", { name: "Rotate the signing secret?" })).toBeVisible();
    await page.getByTestId("confirm-webhook-action").click();
    await expect(page.getByRole("dialog", { name: "New signing secret" })).toContainText(
      "previous secret stays valid for 24 hours",
    );
    const rotated = (await page.getByTestId("webhook-secret").textContent()) ?? "";
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(first);
    receiver.secrets.set("rotated", rotated);
    await shoot(page, "webhook-rotated-secret");
    await page.getByRole("button", { name: "I have stored the secret" }).click();
    await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
    expect(await page.content()).not.toContain(rotated);
    for (const path of [`/api/treasury/webhooks/${id}`, "/api/treasury/webhooks?page_size=200"]) {
      const text = await (await page.request.get(path)).text();
      expect(text).not.toContain(rotated);
      expect(text).not.toContain(first);
    }

    // A test event is signed with both secrets during the overlap; the receiver checks each v1 itself.
    await row.getByTestId("test-webhook").click();
    // (Payment events of other journeys may reach this endpoint too: the test event is the one sent after the
    // rotation.)
    const testEvent = () =>
      receiver.received.find((d) => d.path === `/edges/${RUN}/v2` && d.body.type === "webhook.test");
    await expect
      .poll(() => [...(testEvent()?.validFor ?? [])].sort(), { timeout: 30_000 })
      .toEqual(["first", "rotated"]);
    expect(testEvent()?.v1Count).toBe(2);
    expect(testEvent()?.fresh).toBe(true);

    // Deactivate and activate: at once in the list, kept after a reload, and in the API.
    // (click, not uncheck: the box follows the list, which changes a moment later, after in-flight reads are cancelled)
    const active = page.getByLabel(`Active: ${url}`);
    await active.click();
    await expect(active).not.toBeChecked();
    await expect(row).toContainText("inactive");
    await expect(page.getByText("Endpoint deactivated.")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel(`Active: ${url}`)).not.toBeChecked();
    expect(
      ((await (await page.request.get(`/api/treasury/webhooks/${id}`)).json()) as { active: boolean }).active,
    ).toBe(false);
    await shoot(page, "webhook-inactive");
    await page.getByLabel(`Active: ${url}`).click();
    await expect(page.getByLabel(`Active: ${url}`)).toBeChecked();
    await expect(page.getByText("Endpoint activated.")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel(`Active: ${url}`)).toBeChecked();

    // Delete asks first; Cancel keeps the endpoint, Delete removes it for good.
    await row.getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete this endpoint?" });
    await expect(confirm).toContainText(url);
    await shoot(page, "webhook-delete-confirm");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(row).toBeVisible();
    await row.getByRole("button", { name: "Delete" }).click();
    await page.getByTestId("confirm-webhook-action").click();
    await expect(row).toHaveCount(0);
    await expect(page.getByText("Endpoint deleted.")).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("webhook-row").first().or(page.getByText("No webhook endpoints"))).toBeVisible();
    await expect(page.locator(`[data-testid="webhook-row"][data-url="${url}"]`)).toHaveCount(0);
    expect((await page.request.get(`/api/treasury/webhooks/${id}`)).status()).toBe(404);

    await page.goto("/audit");
    const audit = (action: string) =>
      page.locator(
        `[data-testid="audit-row"][data-action="${action}"][data-user="${USERS.admin.email}"][data-object="${id}"]`,
      );
    // edit, rotate, deactivate, activate
    await expect(audit("webhook.update")).toHaveCount(4);
    await expect(audit("webhook.delete")).toHaveCount(1);
  },
);

test("a submit from a stale page is refused with a 409 shown in words", async ({ browser }) => {
  const stale = await pageAs(browser, "treasurer");
  await stale.goto("/payments");
  const id = await createBatchVia(stale, "NOK", [
    {
      amount: "980.00",
      creditor_name: "Stale Page AS",
      creditor_iban: "NO9386011117947",
      end_to_end_id: `STALE-${RUN}`,
    },
  ]);

  // Tab 1 opens the submit confirmation; tab 2 submits meanwhile.
  await stale.goto(`/payments/${id}`);
  await stale.getByTestId("submit-batch").click();
  await expect(stale.getByTestId("submit-dialog")).toBeVisible();
  const fresh = await stale.context().newPage();
  await fresh.goto(`/payments/${id}`);
  await fresh.getByTestId("submit-batch").click();
  await fresh.getByTestId("confirm-submit").click();
  await expect(fresh.locator("[data-status]").first()).toHaveAttribute("data-status", "pending_approval");

  const answer = stale.waitForResponse((r) => r.url().endsWith(`/api/treasury/payments/batches/${id}/submit`));
  await stale.getByTestId("confirm-submit").click();
  const refused = await answer;
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toMatchObject({ error: "conflict", details: { state: "pending_approval" } });
  const words = "Submitting the batch was refused: it is already waiting for approval, so this is no longer possible.";
  await expect(stale.getByTestId("submit-dialog").getByRole("alert")).toContainText(words);
  await expect(stale.locator("[data-sonner-toast]").filter({ hasText: words })).toBeVisible();
  // A retry cannot change a 409: the dialog offers Close, not Try again.
  await expect(stale.getByTestId("confirm-submit")).toHaveCount(0);
  await shoot(stale, "stale-submit-409");
  await stale.getByTestId("submit-dialog").getByRole("button", { name: "Close", exact: true }).last().click();
  // The rolled-back page refetches and shows the state the other tab reached; Submit is no longer offered.
  await expect(stale.locator("[data-status]").first()).toHaveAttribute("data-status", "pending_approval");
  await expect(stale.getByTestId("submit-batch")).toHaveCount(0);
});

test("a field error from the server lands on its field: an execution date the browser's clock allows", async ({
  browser,
}) => {
  const page = await pageAs(browser, "treasurer");
  // The browser's clock is three days behind the server's: yesterday is still in the future for it,
  // so the date picker lets the date through (the contract schema has no clock rule) and the BFF refuses it.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await page.clock.setFixedTime(new Date(Date.now() - 3 * 86_400_000));
  await page.goto("/payments/new");
  await fillRow(page, 1, { name: "Clock Skew AS", iban: "NO9386011117947", e2e: `SKEW-${RUN}`, amount: "10.00" });
  const date = page.getByRole("textbox", { name: "Requested execution date" });
  await date.fill(yesterday);
  await expect(date).not.toHaveAttribute("aria-invalid", "true");
  const answer = page.waitForResponse(
    (r) => r.url().endsWith("/api/treasury/payments/batches") && r.request().method() === "POST",
  );
  await page.getByTestId("save-batch").click();
  const refused = await answer;
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { details: { errors: Record<string, string[]> } }).details.errors).toHaveProperty(
    "requested_execution_date",
  );
  await expect(date).toHaveAttribute("aria-invalid", "true");
  await expect(
    page.getByText(/must not be in the past \(today is \d{4}-\d{2}-\d{2} where the company is\)/).first(),
  ).toBeVisible();
  await expect(page.getByTestId("cell-error")).toHaveCount(0);
  await expect(page).toHaveURL(/\/payments\/new$/);
  await shoot(page, "server-date-error");
});

test("server field errors land on the cells they name (scripted BFF answer)", async ({ browser }) => {
  // The browser checks instructions with the same contract schema as the BFF and the API, so no input
  // reaches the server with an instruction error; the mapping is tested with a scripted answer that uses
  // both path forms: the API's `instructions[1].creditor_iban` and the BFF's `instructions.0.end_to_end_id`.
  const page = await pageAs(browser, "treasurer");
  await page.goto("/payments/new");
  await fillRow(page, 1, { name: "Cell One AS", iban: "NO9386011117947", e2e: `CELL-${RUN}-1`, amount: "100.00" });
  await page.getByTestId("add-row").click();
  await fillRow(page, 2, {
    name: "Cell Two AB",
    iban: "SE4550000000058398257466",
    e2e: `CELL-${RUN}-2`,
    amount: "200.00",
  });
  await expect(page.getByTestId("running-total")).toContainText("300.00");
  await scriptFieldErrors(page, "3f1c2d4e-0000-4000-8000-00000000e2e0", {
    "instructions[1].creditor_iban": ["is not reachable by the bank"],
    "instructions.0.end_to_end_id": ["is already used in another batch"],
  });
  await page.getByTestId("save-batch").click();
  const iban2 = page.getByLabel("Creditor IBAN of row 2");
  const e2e1 = page.getByLabel("End-to-end id of row 1");
  await expect(iban2).toHaveAttribute("aria-invalid", "true");
  await expect(e2e1).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("cell-error")).toHaveCount(2);
  await expect(page.locator(`#${await iban2.getAttribute("aria-describedby")}`)).toHaveText(
    "Creditor IBAN is not reachable by the bank",
  );
  await expect(page.locator(`#${await e2e1.getAttribute("aria-describedby")}`)).toHaveText(
    "End-to-end id is already used in another batch",
  );
  for (const other of [
    "Creditor IBAN of row 1",
    "End-to-end id of row 2",
    "Amount of row 1",
    "Creditor name of row 2",
  ]) {
    await expect(page.getByLabel(other)).not.toHaveAttribute("aria-invalid", "true");
  }
  await expect(
    page
      .locator("[data-sonner-toast]")
      .filter({ hasText: "not reachable by the bank (and 1 more) (request 3f1c2d4e)" }),
  ).toBeVisible();
  await expect(page.getByText("Not saved.")).toBeVisible();
  await shoot(page, "server-cell-errors");

  // Correcting a marked cell clears its mark; the batch then saves for real.
  await iban2.fill("DE89370400440532013000");
  await expect(iban2).not.toHaveAttribute("aria-invalid", "true");
  await e2e1.fill(`CELL-${RUN}-1B`);
  await expect(page.getByTestId("cell-error")).toHaveCount(0);
  await page.getByTestId("save-batch").click();
  await page.waitForURL(/\/payments\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("instruction-row")).toHaveCount(2);
});

test("a server error on a remittance's text or RF reference lands on that input (scripted BFF answer)", async ({
  browser,
}) => {
  // The form's rows have the contract's shape, so the path the server names is the input's own path.
  const page = await pageAs(browser, "treasurer");
  await page.goto("/payments/new");
  await fillRow(page, 1, { name: "Rem One AS", iban: "NO9386011117947", e2e: `REM-${RUN}-1`, amount: "10.00" });
  await page.getByLabel("Remittance", { exact: true }).first().selectOption("unstructured");
  await page.getByLabel("Remittance text of row 1").fill("Invoice 4711");
  await page.getByTestId("add-row").click();
  await fillRow(page, 2, { name: "Rem Two AS", iban: "NO9386011117947", e2e: `REM-${RUN}-2`, amount: "20.00" });
  await page.getByLabel("Remittance", { exact: true }).nth(1).selectOption("creditor_reference");
  await page.getByLabel("RF creditor reference of row 2").fill("RF18 5390 0754 7034");
  await expect(page.getByTestId("cell-error")).toHaveCount(0);
  await scriptFieldErrors(page, "3f1c2d4e-0000-4000-8000-00000000e2e1", {
    "instructions[0].remittance_information.text": ["is refused by the bank"],
    "instructions[1].remittance_information.reference": ["is not known to the creditor's bank"],
  });
  await page.getByTestId("save-batch").click();
  const text1 = page.getByLabel("Remittance text of row 1");
  const rf2 = page.getByLabel("RF creditor reference of row 2");
  await expect(text1).toHaveAttribute("aria-invalid", "true");
  await expect(rf2).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator(`#${await text1.getAttribute("aria-describedby")}`)).toHaveText(
    "Remittance text is refused by the bank",
  );
  await expect(page.locator(`#${await rf2.getAttribute("aria-describedby")}`)).toHaveText(
    "Creditor reference is not known to the creditor's bank",
  );
  // The error summary links to the input that shows the error.
  const summary = page.getByTestId("error-summary");
  await summary.getByRole("link", { name: /Row 2 · Remittance/ }).click();
  await expect(rf2).toBeFocused();
  await page.close();
});

test("treasurer rejects a match with a reason; the decided tab and the audit log show who and why", async ({
  browser,
}) => {
  const page = await pageAs(browser, "treasurer");
  await page.goto("/reconciliation");
  // A seeded proposal (other specs decide only their own E2E-* matches).
  const seeded = page.locator('[data-testid="match-row"]:not([data-e2e=""]):not([data-e2e^="E2E-"])');
  await expect(seeded.first()).toBeVisible();
  // One whose end-to-end id no other proposal shares (the seeded ambiguity has two proposals for one id), so the row
  // and its decided row are one each.
  const ids = await seeded.evaluateAll((els) => els.map((el) => el.getAttribute("data-e2e") ?? ""));
  const unique = ids.filter((id) => ids.indexOf(id) === ids.lastIndexOf(id));
  const e2e = unique.filter((id) => !id.startsWith("DEMO2-AMB")).at(-1) ?? unique.at(-1) ?? "";
  expect(e2e).not.toBe("");
  const row = page.locator(`[data-testid="match-row"][data-e2e="${e2e}"]`);
  await row.getByTestId("reject-match").click();
  const dialog = page.getByTestId("match-dialog");
  await expect(dialog).toContainText(e2e);
  await expect(dialog.getByLabel("Reason (optional, kept in the audit log)")).toBeFocused();
  const reason = `Booked against invoice 4711, not this payment (${RUN})`;
  await dialog.getByLabel("Reason (optional, kept in the audit log)").fill(reason);
  await shoot(page, "match-reject-reason");
  await page.getByTestId("confirm-match-decision").click();
  await expect(row).toHaveCount(0);

  await page.getByRole("tab", { name: "Decided" }).click();
  const decided = page.locator(`[data-testid="match-row"][data-e2e="${e2e}"]`);
  await expect(decided.locator('[data-status="rejected"]')).toHaveCount(1);
  await expect(decided.getByTestId("match-reviewer")).toHaveText(`by ${USERS.treasurer.email}`);
  await expect(decided.getByTestId("match-reason")).toHaveText(`Reason: ${reason}`);
  await shoot(page, "match-decided-reason");

  const admin = await pageAs(browser, "admin");
  await admin.goto("/audit");
  await expect(
    admin
      .locator(
        `[data-testid="audit-row"][data-action="reconciliation_match.reject"][data-user="${USERS.treasurer.email}"]`,
      )
      .filter({ hasText: `reason: ${reason}` }),
  ).toHaveCount(1);
});
