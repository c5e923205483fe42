/**
 * ISO 20022 in the dashboard: a treasurer downloads a batch's pain.001 from
 * the batch page (debtor account named, transliterated fields listed, the
 * download audited); an admin uploads a camt.053 written here and sees the
 * per-file summary, a broken file shows the refused element and stores
 * nothing; a viewer has no statements page. The bank's answer round trip: a batch's exported pain.001 answered by a
 * pain.002 (one payment settled, one rejected AC04) uploaded by the admin, the changes shown on the upload and the
 * bank's reason on the batch page. And through a host-to-host folder channel: a batch approved in the browser is
 * written as a pain.001 into the bank's inbox ("Sent to bank" with the file name on the batch page), and the folder
 * bank's answers (pain.002, camt.054) pulled from its outbox settle it.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { buildCamt053 } from "@treasury/test-support/camt053-builder";
import { pain002For } from "@treasury/test-support/pain002";
import { runFolderBankOnce, type FolderBank } from "@treasury/test-support/local-api";
import { MAIN_API_URL } from "../playwright.config";
import { demoApiToken } from "./demo-api";
import { findDecided } from "./decided-tab";
import { approvedBatch, createBatchVia, pageAs, scanAndShoot, writeHeaders } from "./fixtures";

const RUN = Date.now().toString(36).toUpperCase();

test(
  "a treasurer downloads a batch's pain.001 with exact sums and transliterated names, and the download is " + "audited",
  async ({ browser }) => {
    const page = await pageAs(browser, "treasurer");
    // The batch is paid from the company's first active account in its currency: take a currency the company holds.
    const accounts = (await (await page.request.get("/api/treasury/accounts?page_size=200")).json()) as {
      items: { currency: string; status?: string }[];
    };
    const currency = accounts.items.find((a) => a.status !== "closed")?.currency ?? "NOK";
    const id = await createBatchVia(page, currency, [
      {
        amount: "0.10",
        creditor_name: "Bjørn Ærø Skøyter AS",
        creditor_iban: "NO9386011117947",
        end_to_end_id: `P1-${RUN}`,
      },
      {
        amount: "0.20",
        creditor_name: "Fjordkraft AS",
        creditor_iban: "DE89370400440532013000",
        end_to_end_id: `P2-${RUN}`,
      },
    ]);
    await page.goto(`/payments/${id}`);
    const panel = page.getByTestId("pain001-panel");
    await expect(panel.getByTestId("debtor-account")).toContainText("Paid from");
    await expect(panel.getByTestId("debtor-account")).toContainText(`first active ${currency} account by name`);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      panel.getByTestId("download-pain001").click(),
    ]);
    expect(download.suggestedFilename()).toBe(`pain.001.001.09_${id}.xml`);
    const xml = await readFile((await download.path()) ?? "", "utf8");
    expect(xml).toContain('xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"');
    expect(xml).toMatch(/<GrpHdr>[\s\S]*<NbOfTxs>2<\/NbOfTxs>\s*<CtrlSum>0.30<\/CtrlSum>/);
    expect(xml).toContain("<Nm>Bjorn Aero Skoyter AS</Nm>");
    await expect(panel.getByTestId("pain001-notes")).toContainText("transliterated to the SEPA Latin character set");
    await expect(panel.getByTestId("pain001-notes")).toContainText("instructions[0].creditor_name");
    await scanAndShoot(page, "batch-pain001");

    // pain.001.001.03 on request.
    await panel.getByLabel("Format").selectOption("pain.001.001.03");
    const [old] = await Promise.all([page.waitForEvent("download"), panel.getByTestId("download-pain001").click()]);
    expect(old.suggestedFilename()).toBe(`pain.001.001.03_${id}.xml`);

    const admin = await pageAs(browser, "admin");
    const audit = (await (
      await admin.request.get("/api/audit?action=payment_batch.pain001_export&limit=50")
    ).json()) as {
      items: { object_id: string | null }[];
    };
    expect(audit.items.filter((e) => e.object_id === id)).toHaveLength(2);
    await page.context().close();
    await admin.context().close();
  },
);

test("a viewer has no statements page", async ({ browser }) => {
  const page = await pageAs(browser, "viewer");
  await page.goto("/");
  await expect(page.getByRole("navigation", { name: "Main" }).locator('a[data-area="statements"]')).toHaveCount(0);
  await page.goto("/statements");
  await expect(page.getByTestId("problem-state")).toContainText("Statements");
  const res = await page.request.post("/api/treasury/statements", {
    headers: { Origin: new URL(page.url()).origin, "Idempotency-Key": crypto.randomUUID() },
    multipart: { files: { name: "a.xml", mimeType: "application/xml", buffer: Buffer.from("<x/>") } },
  });
  expect(res.status()).toBe(403);
  await page.context().close();
});

function statement(iban: string, entries: number): string {
  return buildCamt053({
    version: "08",
    messageId: `E2E-${RUN}-${entries}`,
    createdAt: "2026-11-20T18:00:00+01:00",
    statements: [
      {
        id: `STMT-${RUN}-${entries}`,
        createdAt: "2026-11-20T18:00:00+01:00",
        account: { iban, currency: "NOK", servicerBic: "DNBANOKK" },
        balances: [
          { code: "OPBD", amount: "1000.00", currency: "NOK", date: "2026-11-20" },
          { code: "CLBD", amount: String(1000 + entries * 10) + ".00", currency: "NOK", date: "2026-11-20" },
        ],
        entries: Array.from({ length: entries }, (_, i) => ({
          amount: "10.00",
          currency: "NOK",
          direction: "credit" as const,
          booked: "2026-11-20",
          value: "2026-11-20",
          servicerRef: `REF-${RUN}-${i}`,
          txs: [{ endToEndId: `E2E-${RUN}-${i}`, counterparty: "Kunde AS", remittance: [`Faktura ${i}`] }],
        })),
      },
    ],
  });
}

test("an admin uploads a camt.053 and sees the summary; a broken file shows the refused element", async ({
  browser,
}) => {
  const page = await pageAs(browser, "admin");
  await page.goto("/statements");
  await expect(page.getByRole("navigation", { name: "Main" }).locator('a[data-area="statements"]')).toBeVisible();
  // Upload into the last company: the viewer's read specs look at the first two, and an account this upload creates
  // there would become the first row of their accounts list (it has no intraday points).
  const switcher = page.getByTestId("company-switcher");
  const last = await switcher.locator("option").last().getAttribute("value");
  if (!last) throw new Error("no company to upload into");
  await switcher.selectOption(last);
  await expect(switcher).toHaveValue(last);
  const input = page.getByTestId("statement-input");
  await input.setInputFiles({
    name: `statement-${RUN}.xml`,
    mimeType: "application/xml",
    buffer: Buffer.from(statement("NO8330001234567", 3)),
  });
  await expect(page.getByTestId("statement-selected")).toContainText(`statement-${RUN}.xml`);
  await page.getByTestId("statement-upload").click();
  const row = page.getByTestId("statement-result-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`statement-${RUN}.xml`);
  await expect(row).toContainText("camt.053.001.08");
  await scanAndShoot(page, "statements-imported");

  const broken = statement("NO8330001234567", 1).replace('<Amt Ccy="NOK">10.00</Amt>', '<Amt Ccy="NOK">ten</Amt>');
  await input.setInputFiles({ name: `broken-${RUN}.xml`, mimeType: "application/xml", buffer: Buffer.from(broken) });
  await page.getByTestId("statement-upload").click();
  const error = page.getByTestId("statement-error");
  await expect(error).toContainText("Nothing was imported");
  await expect(error).toContainText(`broken-${RUN}.xml`);
  await expect(error.getByTestId("statement-error-path")).toContainText("Ntry");
  await scanAndShoot(page, "statements-error");
  await page.context().close();
});

test("a bank's pain.002 for an exported batch settles one payment and rejects one with its reason", async ({
  browser,
}) => {
  // Two users, a batch created, approved, downloaded, answered and read on two pages, with two axe scans: more than
  // the default minute on a loaded two-core machine.
  test.slow();
  // Due in 40 days: the simulated bank holds the approved batch until then, so only this spec's pain.002 moves it.
  const later = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
  const [paid, refused] = [`P002-OK-${RUN}`, `P002-RJ-${RUN}`];
  const { batchId, companyId, treasurer } = await approvedBatch(
    browser,
    [
      { amount: "12.30", creditor_name: "Fjordkraft AS", creditor_iban: "NO9386011117947", end_to_end_id: paid },
      {
        amount: "45.60",
        creditor_name: "Lukket Konto AS",
        creditor_iban: "DE89370400440532013000",
        end_to_end_id: refused,
      },
    ],
    { requestedExecutionDate: later },
  );
  await treasurer.goto(`/payments/${batchId}`);
  const panel = treasurer.getByTestId("pain001-panel");
  const [download] = await Promise.all([
    treasurer.waitForEvent("download"),
    panel.getByTestId("download-pain001").click(),
  ]);
  const pain001 = await readFile((await download.path()) ?? "", "utf8");
  const report = pain002For(pain001, { [paid]: { code: "ACSC" }, [refused]: { code: "RJCT", reason: "AC04" } });

  const admin = await pageAs(browser, "admin");
  await admin.goto("/statements");
  const switcher = admin.getByTestId("company-switcher");
  await switcher.selectOption(companyId);
  await expect(switcher).toHaveValue(companyId);
  await admin.getByTestId("statement-input").setInputFiles({
    name: `status-${RUN}.xml`,
    mimeType: "application/xml",
    buffer: Buffer.from(report),
  });
  await admin.getByTestId("statement-upload").click();
  await expect(admin.getByTestId("statement-result-row")).toContainText("pain.002.001.03");
  const shown = admin.getByTestId("status-report");
  await expect(shown).toContainText(`status-${RUN}.xml`);
  await expect(shown.getByRole("link", { name: `batch ${batchId.slice(0, 8)}` })).toHaveAttribute(
    "href",
    `/payments/${batchId}`,
  );
  const changes = shown.getByTestId("status-report-change");
  await expect(changes).toHaveCount(2);
  await expect(changes.filter({ hasText: paid })).toContainText(/settled/i);
  await expect(changes.filter({ hasText: refused })).toContainText(/rejected/i);
  await expect(changes.filter({ hasText: refused }).getByTestId("status-report-reason")).toContainText("AC04");
  await expect(changes.filter({ hasText: paid }).getByTestId("status-report-reason")).toHaveCount(0);
  await scanAndShoot(admin, "statements-pain002");

  // The batch page: each payment's status, the rejected one with the bank's code and words.
  await treasurer.goto(`/payments/${batchId}`);
  const rows = treasurer.getByTestId("instruction-row");
  await expect(rows.filter({ hasText: refused }).getByTestId("instruction-reason")).toContainText(
    "AC04 Closed account number",
  );
  await expect(rows.filter({ hasText: paid })).toContainText(/settled/i);
  await expect(rows.filter({ hasText: paid }).getByTestId("instruction-reason")).toHaveCount(0);
  await scanAndShoot(treasurer, "batch-pain002");

  // The reconciliation review: the rejected payment is under "Rejected by the bank" with the reason, never among
  // the payments waiting for a match.
  await treasurer.goto(`/reconciliation/unmatched?kind=rejected&q=${refused}`);
  await expect(treasurer.getByRole("tab", { name: "Rejected by the bank" })).toHaveAttribute("aria-selected", "true");
  const rejectedRow = treasurer.getByTestId("unmatched-row").filter({ hasText: refused });
  await expect(rejectedRow.getByTestId("unmatched-reason")).toContainText("AC04 Closed account number");
  await expect(rejectedRow).toContainText("Lukket Konto AS");
  await expect(rejectedRow.getByRole("link", { name: "Open the batch of Lukket Konto AS" })).toHaveAttribute(
    "href",
    `/payments/${batchId}`,
  );
  await expect(rejectedRow.getByTestId("manual-match")).toHaveCount(0);
  await scanAndShoot(treasurer, "unmatched-rejected");
  // On a phone: the card keeps the amount and the reason in view.
  await treasurer.setViewportSize({ width: 390, height: 844 });
  const card = treasurer.getByTestId("unmatched-card").filter({ hasText: refused });
  await expect(card.getByTestId("unmatched-reason")).toBeVisible();
  await expect(card).toContainText("45.60");
  await scanAndShoot(treasurer, "unmatched-rejected-390");
  await treasurer.getByRole("tab", { name: "Payments without a match" }).click();
  await expect(treasurer).not.toHaveURL(/kind=rejected/);
  await expect(treasurer.getByText("Nothing unmatched here")).toBeVisible();
  await treasurer.context().close();
  await admin.context().close();
});

/** A call to the main server's treasury-api as the dashboard's demo client (Form B, every scope). */
async function api(method: string, p: string, companyId: string, json?: unknown): Promise<Response> {
  const bearer = await demoApiToken(MAIN_API_URL);
  return fetch(`${MAIN_API_URL}/public${p}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      "X-Company-ID": companyId,
      "content-type": "application/json",
      "Idempotency-Key": crypto.randomUUID(),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
}

test("a batch approved in the browser travels as files through a folder channel, settles and is reconciled", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const treasurer = await pageAs(browser, "treasurer");
  const companies = (await (await treasurer.request.get("/api/treasury/companies")).json()) as {
    items: { id: string; name: string }[];
  };
  const company = companies.items.find((c) => c.name === "Nordlys Norge AS");
  expect(company, "the demo company Nordlys Norge AS").toBeDefined();
  const companyId = company?.id ?? "";
  // Its second NOK account (tax withholding): no other spec pays from it, so no other batch takes this channel.
  const accounts = (await (await api("GET", "/accounts?page_size=100", companyId)).json()) as {
    results: { id: string; name: string; iban_masked: string }[];
  };
  const account = accounts.results.find((a) => a.name === "Skattetrekkskonto");
  expect(account, "the account Skattetrekkskonto").toBeDefined();
  // Its IBAN in the demo seed (the API shows it masked): the bank keeps the account under it.
  const iban = "NO3960033753007";
  expect(account?.iban_masked).toBe(`${iban.slice(0, 4)}${"*".repeat(iban.length - 8)}${iban.slice(-4)}`);

  // The bank's two folders, and a connection for that account (after import the API deletes the bank's files).
  const dir = mkdtempSync(path.join(tmpdir(), "e2e-folder-bank-"));
  const inboxDir = path.join(dir, "inbox");
  const outboxDir = path.join(dir, "outbox");
  const settings = {
    bank_name: "E2E folder bank",
    account_ids: [account?.id],
    after_import: "delete",
    channel: { channel: "folder", inbox_dir: inboxDir, outbox_dir: outboxDir },
  };
  const saved = await api("POST", "/bank-connections", companyId, settings);
  expect(saved.status, await saved.clone().text()).toBe(201);
  const connectionId = ((await saved.json()) as { id: string }).id;
  const bank: FolderBank = {
    stateDir: path.join(dir, "bank"),
    desks: [{ name: "nordlys-norge", inboxDir, outboxDir, accounts: [{ iban, currency: "NOK" }] }],
  };
  try {
    // An end-to-end id the bank's rule settles (it rejects one whose SHA-256 starts with a byte below 8).
    let e2e = `FOLDER-${RUN}`;
    for (let i = 1; (createHash("sha256").update(e2e, "utf8").digest()[0] ?? 0) < 8; i++) e2e = `FOLDER-${RUN}-${i}`;
    await treasurer
      .context()
      .addCookies([
        { name: "td_company", value: companyId, domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Lax" },
      ]);
    const batch = await treasurer.request.post("/api/treasury/payments/batches", {
      headers: writeHeaders(),
      data: {
        company_id: companyId,
        currency: "NOK",
        debtor_account_id: account?.id,
        instructions: [
          {
            amount: "12.34",
            currency: "NOK",
            creditor_name: "Fjordkraft AS",
            creditor_iban: "NO9386011117947",
            end_to_end_id: e2e,
          },
        ],
      },
    });
    expect(batch.status(), await batch.text()).toBe(201);
    const batchId = ((await batch.json()) as { id: string }).id;
    const submitted = await treasurer.request.post(`/api/treasury/payments/batches/${batchId}/submit`, {
      headers: writeHeaders(),
    });
    expect(submitted.status(), await submitted.text()).toBe(202);

    // The approver approves in the browser.
    const approver = await pageAs(browser, "approver");
    await approver
      .context()
      .addCookies([
        { name: "td_company", value: companyId, domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Lax" },
      ]);
    await approver.goto("/approvals");
    const row = approver.locator(`[data-testid="approval-row"][data-batch-id="${batchId}"]`);
    await row.getByTestId("approve").click();
    await approver.getByTestId("confirm-decision").click();
    // One approval is enough for this amount: the batch leaves the queue.
    await expect(row).toHaveCount(0);

    // The API writes the pain.001 into the bank's inbox; the batch page says so, with the file's name.
    const fileName = `TD${batchId.replace(/-/g, "")}.xml`;
    await treasurer.goto(`/payments/${batchId}`);
    await expect(treasurer.getByTestId("batch-bank-file")).toHaveText(fileName, { timeout: 30_000 });
    await expect(treasurer.getByTestId("batch-bank-delivery")).toContainText("E2E folder bank");
    expect(readdirSync(inboxDir)).toEqual([fileName]);
    await expect(treasurer.locator("[data-status]").first()).toHaveAttribute("data-status", "approved");

    // The bank (this test) answers at the instant pace: acceptance, the camt.054 booking, the final status.
    const answered = await runFolderBankOnce(bank, { speed: "instant" });
    expect(answered.received).toEqual([fileName]);
    expect(answered.written.map((n) => n.replace(/^.*-(\d-\w+\.xml)$/, "$1"))).toEqual([
      "1-ack.xml",
      "2-debit.xml",
      "3-status.xml",
    ]);
    // The API learns it by pulling the bank's outbox ("pull now" instead of waiting for the schedule).
    const pulled = await api("POST", `/bank-connections/${connectionId}/pull`, companyId);
    expect(pulled.status, await pulled.clone().text()).toBe(200);
    expect(await pulled.json()).toMatchObject({ imported: 3, failed: 0, error: null });
    expect(readdirSync(outboxDir)).toEqual([]);

    await expect(treasurer.locator("[data-status]").first()).toHaveAttribute("data-status", "completed", {
      timeout: 30_000,
    });
    await expect(treasurer.getByTestId("instruction-row").filter({ hasText: e2e })).toContainText(/settled/i);
    await expect(treasurer.getByTestId("batch-bank-file")).toHaveText(fileName);
    await scanAndShoot(treasurer, "batch-folder-channel");

    // Reconciled: the matcher proposed the camt.054's booking for the payment; the treasurer confirms it.
    await treasurer.goto("/reconciliation");
    const match = treasurer.locator(`[data-testid="match-row"][data-e2e="${e2e}"]`);
    await expect(async () => {
      await treasurer.reload();
      await expect(match).toHaveCount(1, { timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    const oneClick = (await match.getByTestId("confirm-match").getAttribute("data-quick")) === "true";
    await match.getByTestId("confirm-match").click();
    if (!oneClick) await treasurer.getByTestId("confirm-match-decision").click();
    await expect(match).toHaveCount(0);
    await treasurer.getByRole("tab", { name: "Decided" }).click();
    await expect(treasurer.getByTestId("match-row").first()).toBeVisible();
    // Confirmed, as the Decided tab reads it: every page of it, because specs running alongside decide other
    // matches in the same seconds, so this one need not be on the first page (newest decided first).
    await expect(async () => {
      const found = await findDecided(treasurer, (r) => r.instruction?.end_to_end_id === e2e);
      expect(found?.item.match.state).toBe("confirmed");
    }).toPass({ timeout: 30_000 });
    await approver.context().close();
  } finally {
    // Switched off, not deleted: the batch keeps its "Sent to bank" record.
    await api("PATCH", `/bank-connections/${connectionId}`, companyId, { active: false });
    rmSync(dir, { recursive: true, force: true });
    await treasurer.context().close();
  }
});
