/**
 * The payment run in the new-batch form: a verified counterparty picked with
 * the typeahead (IBAN and BIC filled, "Verified counterparty"), an ad-hoc
 * creditor flagged "Not a verified counterparty", a batch name, the debtor
 * account with its available balance, an RF creditor reference (a wrong check
 * digit is named on the cell); the created batch shows all of it and its risk
 * signals to the creator before submitting; it is edited (renamed, amount
 * changed) and another batch is discarded. Axe scans and screenshots of the
 * form at desktop width and at 390 px. A CSV import with BIC, remittance text
 * and RF reference columns (a missing BIC outside SEPA and a wrong RF check
 * digit corrected in the preview) fills the form, and the created batch's
 * instructions carry them.
 */
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { createBatchVia, pageAs as as, scanAndShoot, writeHeaders as write } from "./fixtures";

const SHOTS = process.env.E2E_SHOTS ?? path.join("/tmp", "shots-payrun");
const RUN = Date.now();
// A payee no other spec uses.
const PAYEE = { name: `Vestland Kraft ${RUN % 100000} AS`, iban: "NO5015032080119", bic: "DNBANOKK" };
const RF = "RF18 5390 0754 7034";

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** A verified counterparty: created by the treasurer, verified by the admin (maker-checker). */
async function verifiedPayee(treasurer: Page, admin: Page): Promise<void> {
  const created = await treasurer.request.post("/api/counterparties", {
    headers: write(),
    data: { name: PAYEE.name, iban: PAYEE.iban, bic: PAYEE.bic, defaultRemittance: "Electricity" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const body = (await created.json()) as { id?: string; item?: { id: string } };
  const id = body.id ?? body.item?.id;
  const verified = await admin.request.post(`/api/counterparties/${id}/verify`, {
    headers: write(),
    data: { reason: "Called the supplier on a known number", expectedVersion: 1 },
  });
  expect(verified.status(), await verified.text()).toBe(200);
}

test("create a batch with a typeahead payee, debtor account and RF reference; edit it; discard another", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const treasurer = await as(browser, "treasurer");
  const admin = await as(browser, "admin");
  await treasurer.goto("/payments");
  await verifiedPayee(treasurer, admin);

  await treasurer.goto("/payments/new");
  const form = treasurer.getByRole("form", { name: "New payment batch" });
  await expect(form).toBeVisible();
  // The API advertises the payment-run fields: no "not offered" note, the controls are there.
  await expect(treasurer.getByTestId("run-fields-unavailable")).toHaveCount(0);
  await treasurer.getByTestId("batch-reference").fill(`Suppliers ${RUN}`);
  const debtor = treasurer.getByTestId("debtor-account");
  await expect(debtor.locator("option").first()).toBeAttached();
  await expect(treasurer.getByTestId("debtor-balance")).toContainText(/Available|No available balance/);

  // Row 1: the typeahead finds the counterparty by part of its IBAN and fills IBAN and BIC.
  const name1 = treasurer.getByLabel("Creditor name of row 1");
  await name1.fill("2080 119");
  const option = treasurer.getByTestId("payee-option").filter({ hasText: PAYEE.name });
  await expect(option).toContainText("verified");
  await shoot(treasurer, "form-typeahead");
  await option.click();
  await expect(name1).toHaveValue(PAYEE.name);
  await expect(treasurer.getByLabel("Creditor IBAN of row 1")).toHaveValue("NO50 1503 2080 119");
  await expect(treasurer.getByLabel("BIC of row 1")).toHaveValue(PAYEE.bic);
  await expect(treasurer.getByTestId("payee-flag").first()).toHaveText(/Verified counterparty/);
  await treasurer.getByLabel("End-to-end id of row 1").fill(`RUN-${RUN}-1`);
  await treasurer.getByLabel("Amount of row 1").fill("1250.00");
  await treasurer.getByLabel("Remittance", { exact: true }).first().selectOption("creditor_reference");
  const rf = treasurer.getByLabel("RF creditor reference of row 1");
  await rf.fill("RF19 5390 0754 7034");
  await expect(treasurer.getByText("Creditor reference has wrong check digits")).toBeVisible();
  await rf.fill(RF);
  await expect(treasurer.getByText("Creditor reference has wrong check digits")).toHaveCount(0);

  // Row 2: an ad-hoc creditor is allowed and flagged.
  await treasurer.getByTestId("add-row").click();
  await treasurer.getByLabel("Creditor name of row 2").fill("Ad Hoc Consulting AS");
  await treasurer.getByLabel("Creditor IBAN of row 2").fill("NO71 1234 5678 903");
  await treasurer.getByLabel("End-to-end id of row 2").fill(`RUN-${RUN}-2`);
  await treasurer.getByLabel("Amount of row 2").fill("80.00");
  await treasurer.getByLabel("Remittance", { exact: true }).nth(1).selectOption("unstructured");
  await treasurer.getByLabel("Remittance text of row 2").fill("Invoice 2026-118");
  await expect(treasurer.getByTestId("payee-flag").nth(1)).toHaveText(/Not a verified counterparty/);

  await scanAndShoot(treasurer, "payment-run-form");
  await shoot(treasurer, "form-desktop");
  await treasurer.setViewportSize({ width: 390, height: 844 });
  // On a phone the instructions table scrolls inside its own box; the page itself never scrolls sideways.
  const wide = await treasurer.evaluate(() => {
    const over = [...document.body.querySelectorAll("*")].find(
      (el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest("[class*=overflow-x-auto]"),
    );
    return {
      page: document.documentElement.scrollWidth - window.innerWidth,
      culprit: over ? `${over.tagName} ${over.className}`.slice(0, 120) : "",
    };
  });
  expect(wide).toEqual({ page: 0, culprit: "" });
  await shoot(treasurer, "form-390");
  await treasurer.setViewportSize({ width: 1360, height: 860 });

  await treasurer.getByTestId("save-batch").click();
  await treasurer.waitForURL(/\/payments\/[0-9a-f-]{36}$/);
  const id = treasurer.url().split("/").pop() ?? "";
  await expect(treasurer.getByRole("heading", { level: 1 })).toContainText(`Suppliers ${RUN}`);
  await expect(treasurer.getByTestId("instruction-row").first()).toContainText("RF18539007547034");
  await expect(treasurer.getByTestId("instruction-row").first()).toContainText(PAYEE.bic);
  await expect(treasurer.getByTestId("instruction-row").nth(1)).toContainText("Not a verified counterparty");
  // The creator sees the batch's risk signals before submitting: only the ad-hoc payee is unverified.
  const unverified = treasurer.locator('[data-testid="risk-signal"][data-code="unverified_counterparty"]');
  await expect(unverified).toHaveCount(1);
  await expect(unverified).toContainText("Ad Hoc Consulting AS");
  await expect(treasurer.getByTestId("batch-created-by")).not.toContainText("@");
  await expect(treasurer.getByTestId("batch-timeline")).toContainText("Created by");
  await expect(treasurer.getByTestId("batch-timeline")).not.toContainText("@");
  await shoot(treasurer, "batch-created");

  // Edit: rename and change an amount; the total follows.
  await treasurer.getByTestId("edit-batch").click();
  await treasurer.waitForURL(`**/payments/${id}/edit`);
  const editForm = treasurer.getByRole("form", { name: "Edit payment batch" });
  await expect(editForm).toBeVisible();
  await expect(treasurer.getByLabel("RF creditor reference of row 1")).toHaveValue("RF18539007547034");
  await treasurer.getByTestId("batch-reference").fill(`Suppliers ${RUN} v2`);
  await treasurer.getByLabel("Amount of row 2").fill("90.00");
  await shoot(treasurer, "form-edit");
  await treasurer.getByTestId("save-batch").click();
  await treasurer.waitForURL(`**/payments/${id}`);
  await expect(treasurer.getByRole("heading", { level: 1 })).toContainText(`Suppliers ${RUN} v2`);
  await expect(treasurer.getByTestId("batch-total")).toContainText("1,340.00");
  const audit = await treasurer.request.get(`/api/audit?action=payment_batch.edit`);
  if (audit.ok()) expect(await audit.text()).toContain(id);

  // Discard another created batch from its page.
  const ccy = (await (await treasurer.request.get(`/api/treasury/payments/batches/${id}`)).json()) as {
    currency: string;
  };
  const other = await createBatchVia(treasurer, ccy.currency, [
    { amount: "5.00", creditor_name: "Typo AS", creditor_iban: "NO7112345678903", end_to_end_id: `RUN-${RUN}-X` },
  ]);
  await treasurer.goto(`/payments/${other}`);
  await treasurer.getByTestId("discard-batch").click();
  await expect(treasurer.getByTestId("discard-dialog")).toContainText(other.slice(0, 8));
  await treasurer.getByTestId("confirm-discard").click();
  await treasurer.waitForURL(/\/payments$/);
  expect((await treasurer.request.get(`/api/treasury/payments/batches/${other}`)).status()).toBe(404);
  // A submitted batch can be neither edited nor discarded.
  const sub = await treasurer.request.post(`/api/treasury/payments/batches/${id}/submit`, { headers: write() });
  expect(sub.status()).toBe(202);
  const late = await treasurer.request.delete(`/api/treasury/payments/batches/${id}`, { headers: write() });
  expect(late.status()).toBe(409);
});

test("a CSV with BIC, remittance text and RF reference columns fills the form; the batch carries them", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const treasurer = await as(browser, "treasurer");
  await treasurer.goto("/payments/new");
  await expect(treasurer.getByRole("form", { name: "New payment batch" })).toBeVisible();
  await expect(treasurer.getByTestId("run-fields-unavailable")).toHaveCount(0);
  await treasurer.getByTestId("batch-reference").fill(`CSV run ${RUN}`);
  const rf2 = "RF52 INV2 0261 18";
  const csv = [
    "creditor_name;creditor_iban;amount;end_to_end_id;BIC;Remittance;RF",
    `Gulf Trading LLC;AE070331234567890123456;2500.00;CSV-${RUN}-1;;;${RF}`,
    `Fjordkraft AS;NO9386011117947;310.50;CSV-${RUN}-2;dnbanokk;Invoice 4711 November;`,
    `Nordic Supplies AB;SE4550000000058398257466;99.90;CSV-${RUN}-3;;;RF53 INV2 0261 18`,
  ].join("\n");
  await treasurer.getByTestId("open-csv").click();
  await expect(treasurer.getByTestId("csv-dialog")).toContainText("optional creditor_bic");
  await treasurer
    .getByTestId("csv-file")
    .setInputFiles({ name: "run.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(treasurer.getByTestId("csv-summary")).toContainText("2 of 3 rows have problems");
  // Each problem is on its cell: the BIC an IBAN outside SEPA needs, the RF reference's check digits.
  const errors = treasurer.getByTestId("csv-cell-error");
  await expect(errors).toHaveText([
    "is required for an IBAN outside SEPA",
    "has wrong check digits (ISO 11649 mod 97)",
  ]);
  await expect(treasurer.getByTestId("csv-import")).toBeDisabled();
  await shoot(treasurer, "csv-run-preview-errors");
  await treasurer.getByLabel("BIC of file row 2").fill("NBADAEAAXXX");
  await treasurer.getByLabel("RF reference of file row 4").fill(rf2);
  await expect(treasurer.getByTestId("csv-summary")).toContainText("All 3 rows are valid");
  await shoot(treasurer, "csv-run-preview");
  await treasurer.getByTestId("csv-import").click();

  // The form holds the three rows with their BIC and remittance information.
  await expect(treasurer.getByTestId("editor-row")).toHaveCount(3);
  await expect(treasurer.getByLabel("BIC of row 1")).toHaveValue("NBADAEAAXXX");
  await expect(treasurer.getByLabel("RF creditor reference of row 1")).toHaveValue(RF);
  await expect(treasurer.getByLabel("BIC of row 2")).toHaveValue("dnbanokk");
  await expect(treasurer.getByLabel("Remittance text of row 2")).toHaveValue("Invoice 4711 November");
  await expect(treasurer.getByLabel("RF creditor reference of row 3")).toHaveValue(rf2);
  await expect(treasurer.getByTestId("cell-error")).toHaveCount(0);
  await expect(treasurer.getByTestId("running-total")).toContainText("2,910.40");
  await shoot(treasurer, "csv-run-imported");

  await treasurer.getByTestId("save-batch").click();
  await treasurer.waitForURL(/\/payments\/[0-9a-f-]{36}$/);
  const id = treasurer.url().split("/").pop() ?? "";
  const res = await treasurer.request.get(`/api/treasury/payments/batches/${id}/instructions`);
  expect(res.status(), await res.text()).toBe(200);
  const { items } = (await res.json()) as {
    items: { end_to_end_id: string; creditor_bic: string | null; remittance_information: unknown }[];
  };
  expect(items.map((i) => [i.end_to_end_id, i.creditor_bic, i.remittance_information])).toEqual([
    [`CSV-${RUN}-1`, "NBADAEAAXXX", { type: "creditor_reference", reference: "RF18539007547034" }],
    [`CSV-${RUN}-2`, "DNBANOKK", { type: "unstructured", text: "Invoice 4711 November" }],
    [`CSV-${RUN}-3`, null, { type: "creditor_reference", reference: "RF52INV2026118" }],
  ]);
  await expect(treasurer.getByTestId("instruction-row").first()).toContainText("RF18539007547034");
});
