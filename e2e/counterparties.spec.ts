/**
 * Counterparties under dual control: a payee created by the treasurer cannot
 * be verified by her (the page does not offer it, and the server refuses the
 * direct call with 403 maker_checker) and is verified by the admin; a new IBAN
 * returns the verified payee to pending with the change in its history; a CSV
 * import reports a bad line by line and column and stores nothing, and a good
 * file creates pending payees; axe scans of the page and its dialogs, on a
 * desktop and a 390 px phone.
 */
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { USERS, pageAs as as, scanAndShoot, writeHeaders as write } from "./fixtures";

const SHOTS = process.env.SHOTS_DIR;

/** Also keeps a screenshot in SHOTS_DIR when set (for looking at the page during development). */
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

interface Listed {
  id: string;
  name: string;
  iban: string;
  status: string;
  version: number;
}

async function findByName(page: Page, name: string): Promise<Listed | undefined> {
  const res = await page.request.get(`/api/counterparties?search=${encodeURIComponent(name)}`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { items: Listed[] }).items.find((c) => c.name === name);
}

function row(page: Page, name: string) {
  return page.locator(`[data-testid="counterparty-row"][data-name="${name}"]`);
}

async function openDetail(page: Page, name: string) {
  await row(page, name).getByTestId("counterparty-toggle").click();
  await expect(page.getByTestId("counterparty-detail")).toBeVisible();
}

test(
  "the maker cannot verify her own counterparty, the admin can; a new IBAN returns it to pending with " + "history",
  async ({ browser }) => {
    const name = "Nordlys Regnskap AS";
    const treasurer = await as(browser, "treasurer");
    await treasurer.goto("/counterparties");
    await treasurer.getByTestId("new-counterparty").click();
    const form = treasurer.getByTestId("counterparty-form");
    await form.getByLabel("Name", { exact: true }).fill(name);
    // A typo in the check digits is named on the IBAN field; nothing is created.
    await form.getByTestId("counterparty-iban").fill("NO93 8601 1117 948");
    await form.getByTestId("save-counterparty").click();
    await expect(form.getByTestId("field-error")).toContainText("IBAN is not a valid IBAN");
    await form.getByTestId("counterparty-iban").fill("no93 8601 1117 947");
    await form.getByTestId("save-counterparty").click();
    await expect(form).toBeHidden();
    await expect(row(treasurer, name).getByTestId("counterparty-status")).toHaveText("Pending verification");
    await expect(row(treasurer, name)).toContainText("NO93 8601 1117 947");

    // The page explains instead of offering Verify to the maker…
    await openDetail(treasurer, name);
    await expect(treasurer.getByTestId("maker-note")).toBeVisible();
    await expect(treasurer.getByTestId("verify-counterparty")).toHaveCount(0);
    // …and the server refuses the direct call, audited, changing nothing.
    const created = await findByName(treasurer, name);
    expect(created).toMatchObject({ status: "pending_verification", iban: "NO9386011117947", version: 1 });
    const own = await treasurer.request.post(`/api/counterparties/${created?.id}/verify`, {
      headers: write(),
      data: { reason: "I know them well", expectedVersion: 1 },
    });
    expect(own.status()).toBe(403);
    expect(await own.json()).toMatchObject({
      error: "permission_denied",
      message: expect.stringMatching(/second person must decide/),
      details: { reason: "maker_checker" },
    });
    expect(await findByName(treasurer, name)).toMatchObject({ status: "pending_verification", version: 1 });
    // A viewer may read but not decide (role table), an unknown id is 404, a bad id 400.
    const viewer = await as(browser, "viewer");
    const byViewer = await viewer.request.post(`/api/counterparties/${created?.id}/verify`, {
      headers: write(),
      data: { reason: "looks fine", expectedVersion: 1 },
    });
    expect(byViewer.status()).toBe(403);
    await viewer.close();
    const unknown = await treasurer.request.get("/api/counterparties/00000000-0000-4000-8000-000000000000");
    expect(unknown.status()).toBe(404);
    const badId = await treasurer.request.get("/api/counterparties/not-a-uuid");
    expect(badId.status()).toBe(400);

    // The admin verifies, with a reason (required: an empty one is refused on the field).
    const admin = await as(browser, "admin");
    await admin.goto("/counterparties");
    await openDetail(admin, name);
    await admin.getByTestId("verify-counterparty").click();
    const decision = admin.getByTestId("counterparty-decision");
    await expect(decision).toContainText("NO93 8601 1117 947");
    await decision.getByTestId("confirm-counterparty-decision").click();
    await expect(decision.getByTestId("field-error")).toContainText("must say why");
    await decision.getByTestId("reason").fill("Called back on the number in our contract");
    await decision.getByTestId("confirm-counterparty-decision").click();
    await expect(decision).toBeHidden();
    await expect(row(admin, name).getByTestId("counterparty-status")).toHaveText("Verified");

    // The treasurer changes the IBAN: back to pending, old → new in the history, by her, with her reason.
    await treasurer.reload();
    await openDetail(treasurer, name);
    await treasurer.getByTestId("edit-counterparty").click();
    const edit = treasurer.getByTestId("counterparty-form");
    await edit.getByTestId("counterparty-iban").fill("NO83 3000 1234 567");
    await edit.getByTestId("reason").fill("Supplier's letter of 3 March");
    await edit.getByTestId("save-counterparty").click();
    await expect(edit).toBeHidden();
    await expect(row(treasurer, name).getByTestId("counterparty-status")).toHaveText("Pending verification");
    const change = treasurer.locator('[data-testid="history-entry"][data-event="bank_details_changed"]');
    await expect(change.getByTestId("iban-change")).toContainText("NO93 8601 1117 947");
    await expect(change.getByTestId("iban-change")).toContainText("NO83 3000 1234 567");
    await expect(change).toContainText(USERS.treasurer.email);
    await expect(change).toContainText("Supplier's letter of 3 March");
    await expect(change.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
    await expect(treasurer.locator('[data-testid="history-entry"][data-event="verified"]')).toContainText(
      USERS.admin.email,
    );
    await expect(treasurer.getByTestId("maker-note")).toBeVisible();
    await shot(treasurer, "counterparties-history-desktop");
    await scanAndShoot(treasurer, "counterparties-history");

    // The history route gives the same, oldest first.
    const changed = await findByName(treasurer, name);
    const hist = await treasurer.request.get(`/api/counterparties/${changed?.id}/history`);
    expect(((await hist.json()) as { items: { event: string }[] }).items.map((h) => h.event)).toEqual([
      "created",
      "verified",
      "bank_details_changed",
    ]);
    // A stale version is a conflict, not a second change.
    const stale = await admin.request.post(`/api/counterparties/${changed?.id}/verify`, {
      headers: write(),
      data: { reason: "Old screen", expectedVersion: 2 },
    });
    expect(stale.status()).toBe(409);
    await treasurer.close();
    await admin.close();
  },
);

test("CSV import reports a bad line by line and column and stores nothing; a good file creates pending payees", async ({
  browser,
}) => {
  const page = await as(browser, "treasurer");
  await page.goto("/counterparties");
  const bad = [
    "name;iban;bic",
    "Berlin Office Supplies GmbH;DE89 3704 0044 0532 0130 00;",
    "Broken Bank Ltd;GB29NWBK60161331926810;",
    "Lyon Conseil SARL;FR1420041010050500013M02606;",
  ].join("\n");
  await page.getByTestId("open-import").click();
  const dialog = page.getByTestId("counterparty-import");
  await dialog
    .getByTestId("counterparty-csv-file")
    .setInputFiles({ name: "payees.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
  await expect(dialog.getByTestId("import-summary")).toContainText("Nothing can be imported: 1 problem");
  const err = dialog.getByTestId("import-error");
  await expect(err).toHaveCount(1);
  await expect(err).toHaveAttribute("data-line", "3");
  await expect(err).toHaveAttribute("data-field", "iban");
  await expect(err).toContainText("not a valid IBAN");
  await expect(dialog.getByTestId("import-counterparties")).toBeDisabled();
  await shot(page, "counterparties-import-bad");
  await scanAndShoot(page, "counterparties-import-report");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // Called directly, the same file is refused with the report and nothing is stored.
  const direct = await page.request.post("/api/counterparties/import", { headers: write(), data: { csv: bad } });
  expect(direct.status()).toBe(400);
  expect(await direct.json()).toMatchObject({
    error: "validation_error",
    message: expect.stringMatching(/Nothing was imported\. line 3 iban/),
    details: { errors: [{ line: 3, field: "iban" }] },
  });
  expect(await findByName(page, "Berlin Office Supplies GmbH")).toBeUndefined();
  // A file with a misspelt column is a file error.
  const header = await page.request.post("/api/counterparties/import", {
    headers: write(),
    data: { csv: "name,ibna\nX,DE89370400440532013000", dryRun: true },
  });
  expect(await header.json()).toMatchObject({
    ok: false,
    fileErrors: expect.arrayContaining([
      expect.stringMatching(/lacks iban/),
      expect.stringMatching(/Unknown column\(s\) ibna/),
    ]),
  });

  const good = bad.replace("GB29NWBK60161331926810", "GB29 NWBK 6016 1331 9268 19");
  await page.getByTestId("open-import").click();
  await dialog
    .getByTestId("counterparty-csv-file")
    .setInputFiles({ name: "payees.csv", mimeType: "text/csv", buffer: Buffer.from(good) });
  await expect(dialog.getByTestId("import-summary")).toContainText("All 3 lines are valid");
  await expect(dialog.getByTestId("import-preview-row")).toHaveCount(3);
  await dialog.getByTestId("import-counterparties").click();
  await expect(dialog).toBeHidden();
  for (const name of ["Berlin Office Supplies GmbH", "Broken Bank Ltd", "Lyon Conseil SARL"])
    await expect(row(page, name).getByTestId("counterparty-status")).toHaveText("Pending verification");

  // Search by a part of the IBAN, written with spaces; the status filter narrows further.
  await page.getByTestId("counterparty-search").fill("3704 0044");
  await expect(page.getByTestId("counterparty-row")).toHaveCount(1);
  await expect(row(page, "Berlin Office Supplies GmbH")).toBeVisible();
  await page.getByTestId("counterparty-search").fill("");
  await page.getByTestId("counterparty-status-filter").selectOption("rejected");
  await expect(page.getByTestId("empty-state")).toContainText("No counterparty matches");
  await page.getByTestId("counterparty-status-filter").selectOption("pending_verification");
  await expect(page.getByTestId("counterparty-row")).not.toHaveCount(0);
  for (const status of await page
    .getByTestId("counterparty-row")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-status"))))
    expect(status).toBe("pending_verification");
  await page.close();
});

test("the page on a 390 px phone: table, detail and dialogs pass axe", async ({ browser }) => {
  const treasurer = await as(browser, "treasurer");
  const made = await treasurer.request.post("/api/counterparties", {
    headers: write(),
    data: { name: "Helsinki Logistics Oy", iban: "FI21 1234 5600 0007 85", defaultRemittance: "Freight, monthly" },
  });
  expect(made.status(), await made.text()).toBe(201);
  await treasurer.close();
  const page = await as(browser, "admin");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/counterparties");
  await expect(page.getByTestId("counterparties-table")).toBeVisible();
  await openDetail(page, "Helsinki Logistics Oy");
  await shot(page, "counterparties-phone");
  await scanAndShoot(page, "counterparties-phone");
  await page.getByTestId("verify-counterparty").click();
  await expect(page.getByTestId("counterparty-decision")).toBeVisible();
  await shot(page, "counterparties-phone-verify");
  await scanAndShoot(page, "counterparties-phone-verify");
  await page.keyboard.press("Escape");
  await page.getByTestId("new-counterparty").click();
  await expect(page.getByTestId("counterparty-form")).toBeVisible();
  await shot(page, "counterparties-phone-create");
  await scanAndShoot(page, "counterparties-phone-create");
  await page.close();
});
