/**
 * Passkey step-up, end to end, on a dashboard of its own started with `DASHBOARD_STEP_UP=required` (the shared e2e
 * server runs in demo mode, where step-up is optional and the other specs approve without a passkey). Its public URL
 * is `http://localhost:<port>`: WebAuthn refuses an IP address as the relying party id. Chromium's virtual
 * authenticator (DevTools protocol) plays the passkey.
 *
 * An approver without a passkey is refused (403 step_up_required, in the audit log); she enrols a passkey on the
 * profile page; a direct approval POST without a fresh assertion is still refused server-side; the bulk approve
 * dialog asks for one passkey confirmation that covers both selected batches, and both are approved; the same proof
 * does not cover another batch; a replayed answer to the consumed challenge is refused; an administrator removes
 * her passkeys, which ends her session. Verifying a counterparty is refused without a passkey and goes through with
 * the checker's passkey confirmation in the dialog. Changing an approval policy (rules and approver groups) is refused
 * and audited without a fresh assertion, even for an administrator with a passkey, and goes through from the policies
 * page with the administrator's passkey; a proof for creating a rule does not cover changing one. A passkey is renamed
 * on the profile page.
 */
import { mkdirSync } from "node:fs";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { freePort } from "@treasury/test-support/free-port";
import { createBatchVia } from "./fixtures";
import { signInOn, startSecondDashboard, type SecondDashboard } from "./second-dashboard";

const SHOTS = "/tmp/shots-passkey";
let dashboard: SecondDashboard | undefined;
let base = "";

test.describe.configure({ mode: "serial", timeout: 240_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  mkdirSync(SHOTS, { recursive: true });
  const port = await freePort();
  base = `http://localhost:${port}`;
  dashboard = await startSecondDashboard({ port, env: { NEXTAUTH_URL: base, DASHBOARD_STEP_UP: "required" } });
});

test.afterAll(async () => {
  await dashboard?.stop();
});

const write = (extra: Record<string, string> = {}) => ({
  Origin: base,
  "Idempotency-Key": crypto.randomUUID(),
  ...extra,
});

/** A fresh context on this spec's dashboard, signed in as the demo user `email`. */
const signedIn = (browser: Browser, email: string) => signInOn(browser, base, email);

/** Creates and submits a one-instruction NOK batch as the treasurer (amounts differ: no duplicate signal); returns its id. */
async function submittedBatch(treasurer: Page, ref: string, amount: string): Promise<string> {
  const id = await createBatchVia(
    treasurer,
    "NOK",
    [{ amount, creditor_name: "Fjordkraft AS", creditor_iban: "NO9386011117947", end_to_end_id: ref }],
    write,
  );
  const submitted = await treasurer.request.post(`/api/treasury/payments/batches/${id}/submit`, { headers: write() });
  expect(submitted.status(), await submitted.text()).toBe(202);
  return id;
}

async function approvalOf(page: Page, batchId: string): Promise<string> {
  const queue = (await (await page.request.get("/api/treasury/approvals/queue")).json()) as {
    items: { approval: { id: string; object_id: string } }[];
  };
  const id = queue.items.find((i) => i.approval.object_id === batchId)?.approval.id;
  expect(id, `approval request of batch ${batchId}`).toBeDefined();
  return id ?? "";
}

async function auditOf(page: Page, action: string) {
  const r = await page.request.get(`/api/audit?action=${action}`);
  expect(r.status(), await r.text()).toBe(200);
  return (
    (await r.json()) as { items: { object_id: string | null; outcome: string; details: Record<string, unknown> }[] }
  ).items;
}

test("approvals need a fresh passkey assertion covering the batch; refusals are audited", async ({ browser }) => {
  const treasurer = await signedIn(browser, "treasurer@demo.local");
  const approver = await signedIn(browser, "approver@demo.local");
  const [b1, b2, b3] = [
    await submittedBatch(treasurer, "PASSKEY-1", "1250.00"),
    await submittedBatch(treasurer, "PASSKEY-2", "2375.50"),
    await submittedBatch(treasurer, "PASSKEY-3", "3480.25"),
  ];
  const [a1, a2, a3] = [await approvalOf(approver, b1), await approvalOf(approver, b2), await approvalOf(approver, b3)];

  // No passkey yet, and step-up is required: refused server-side, before anything reaches the Treasury API.
  const noPasskey = await approver.request.post(`/api/treasury/approvals/${a1}/approve`, { headers: write() });
  expect(noPasskey.status()).toBe(403);
  expect(await noPasskey.json()).toMatchObject({
    error: "step_up_required",
    details: { reason: "no_passkey_enrolled", profile_url: "/profile" },
  });

  // Enrol on the profile page with Chromium's virtual authenticator.
  await virtualAuthenticator(approver);
  await approver.getByTestId("profile-link").click();
  await expect(approver).toHaveURL(/\/profile$/);
  await approver.getByTestId("passkey-name").fill("Virtual authenticator");
  await approver.getByTestId("add-passkey").click();
  await expect(approver.getByTestId("passkey-row")).toHaveCount(1);
  await expect(approver.getByTestId("passkey-row")).toContainText("Virtual authenticator");
  await expect(approver.getByTestId("passkey-row")).toContainText("never");
  await approver.screenshot({ path: `${SHOTS}/profile.png`, fullPage: true });

  // Enrolled, but no fresh assertion: a direct POST is still refused.
  const missing = await approver.request.post(`/api/treasury/approvals/${a1}/approve`, { headers: write() });
  expect(missing.status()).toBe(403);
  expect(await missing.json()).toMatchObject({ error: "step_up_required", details: { reason: "step_up_missing" } });

  // Bulk approve of two batches: one passkey confirmation covers both.
  await approver.goto("/approvals");
  for (const b of [b1, b2])
    await approver.locator(`[data-testid="approval-row"][data-batch-id="${b}"]`).getByRole("checkbox").check();
  await approver.getByTestId("bulk-approve").click();
  const dialog = approver.getByTestId("decision-dialog");
  await expect(dialog.getByTestId("step-up-hint")).toContainText("passkey");
  await approver.screenshot({ path: `${SHOTS}/bulk-dialog.png` });
  const verifyRequest = approver.waitForRequest((r) => r.url().endsWith("/api/session/step-up/verify"));
  const verified = approver.waitForResponse((r) => r.url().endsWith("/api/session/step-up/verify"));
  const approvals = [a1, a2].map((a) =>
    approver.waitForResponse((r) => r.url().includes(`/api/treasury/approvals/${a}/approve`)),
  );
  await approver.getByTestId("confirm-decision").click();
  const proof = (await (await verified).json()) as { proof: string; subjects: string[] };
  expect(proof.subjects.sort()).toEqual([a1, a2].sort());
  for (const r of await Promise.all(approvals)) expect(r.status(), await r.text()).toBe(200);
  await expect(approver.locator(`[data-testid="approval-row"][data-batch-id="${b1}"]`)).toHaveCount(0);
  await expect(approver.locator(`[data-testid="approval-row"][data-batch-id="${b2}"]`)).toHaveCount(0);

  // The proof covers only what the dialog showed.
  const other = await approver.request.post(`/api/treasury/approvals/${a3}/approve`, {
    headers: write({ "X-Step-Up": proof.proof }),
  });
  expect(other.status()).toBe(403);
  expect(await other.json()).toMatchObject({ details: { reason: "step_up_wrong_scope" } });

  // Another session of the same user cannot use it either.
  const second = await signedIn(browser, "approver@demo.local");
  const foreign = await second.request.post(`/api/treasury/approvals/${a3}/approve`, {
    headers: write({ "X-Step-Up": proof.proof }),
  });
  expect(await foreign.json()).toMatchObject({ details: { reason: "step_up_wrong_session" } });

  // A replayed answer to the consumed challenge is refused.
  const replay = await approver.request.post("/api/session/step-up/verify", {
    headers: { ...write(), "Content-Type": "application/json" },
    data: (await verifyRequest).postData() ?? "",
  });
  expect(replay.status()).toBe(400);

  // The refusals are in the audit log with their reasons; the last approvals are successes.
  const refused = await auditOf(approver, "approval.refused");
  const reasons = refused.map((e) => e.details.reason);
  for (const reason of ["no_passkey_enrolled", "step_up_missing", "step_up_wrong_scope", "step_up_wrong_session"])
    expect(reasons).toContain(reason);
  expect(refused.every((e) => e.outcome === "refused")).toBe(true);
  expect((await auditOf(approver, "approval.approve")).map((e) => e.object_id)).toEqual(
    expect.arrayContaining([a1, a2]),
  );
  await approver.goto("/audit");
  await expect(approver.locator('[data-testid="audit-row"][data-action="approval.refused"]').first()).toBeVisible();

  // Recovery: an administrator removes her passkeys, which ends her sessions.
  const admin = await signedIn(browser, "admin@demo.local");
  await admin.goto("/users");
  const row = admin.getByTestId("user-row-approver@demo.local");
  await expect(row.getByTestId("passkey-count")).toHaveText("1");
  await row.getByRole("button", { name: /^Remove the passkeys of / }).click();
  await admin.getByTestId("confirm-remove-user-passkeys").click();
  await expect(row.getByTestId("passkey-count")).toHaveText("0");
  await admin.screenshot({ path: `${SHOTS}/users.png` });
  expect((await approver.request.get("/api/session/passkeys")).status()).toBe(401);
  expect((await auditOf(admin, "user.passkeys_remove"))[0]).toMatchObject({ details: { removed: 1 } });
});

/** Adds Chromium's virtual authenticator (user-verifying platform passkey) to the page's browser. */
async function virtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

test("verifying a counterparty needs the checker's passkey", async ({ browser }) => {
  const treasurer = await signedIn(browser, "treasurer@demo.local");
  const name = "Passkey Revisjon AS";
  const created = await treasurer.request.post("/api/counterparties", {
    headers: write(),
    data: { name, iban: "NO8330001234567", country: "NO" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;

  const admin = await signedIn(browser, "admin@demo.local");
  const refused = await admin.request.post(`/api/counterparties/${id}/verify`, {
    headers: write(),
    data: { reason: "Called back", expectedVersion: 1 },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({
    error: "step_up_required",
    details: { reason: "no_passkey_enrolled" },
  });
  expect((await auditOf(admin, "counterparties.refused"))[0]).toMatchObject({
    object_id: id,
    outcome: "refused",
    details: { reason: "no_passkey_enrolled" },
  });

  await virtualAuthenticator(admin);
  await admin.goto("/profile");
  await admin.getByTestId("add-passkey").click();
  await expect(admin.getByTestId("passkey-row")).toHaveCount(1);

  await admin.goto("/counterparties");
  await admin
    .locator(`[data-testid="counterparty-row"][data-name="${name}"]`)
    .getByTestId("counterparty-toggle")
    .click();
  await admin.getByTestId("verify-counterparty").click();
  const decision = admin.getByTestId("counterparty-decision");
  await decision.getByTestId("reason").fill("Called back on the number in our contract");
  await expect(decision.getByTestId("step-up-hint")).toContainText("passkey");
  await admin.screenshot({ path: `${SHOTS}/counterparty-dialog.png` });
  await decision.getByTestId("confirm-counterparty-decision").click();
  await expect(decision).toBeHidden();
  await expect(
    admin.locator(`[data-testid="counterparty-row"][data-name="${name}"]`).getByTestId("counterparty-status"),
  ).toHaveText("Verified");
});

test("changing an approval policy needs the administrator's passkey; refusals are audited", async ({ browser }) => {
  const admin = await signedIn(browser, "admin@demo.local");
  // A new browser context: its own virtual authenticator, so the administrator enrols a passkey here.
  await virtualAuthenticator(admin);
  await admin.goto("/profile");
  await admin.getByTestId("passkey-name").fill("Policy key");
  await admin.getByTestId("add-passkey").click();
  const mine = admin.getByTestId("passkey-row").filter({ hasText: "Policy key" });
  await expect(mine).toHaveCount(1);
  // Renaming it on the profile page.
  await mine.getByRole("button", { name: "Rename passkey Policy key" }).click();
  await admin.getByTestId("passkey-rename-input").fill("Policy admin key");
  await admin.getByTestId("save-rename").click();
  await expect(admin.getByTestId("passkey-row").filter({ hasText: "Policy admin key" })).toHaveCount(1);
  await admin.screenshot({ path: `${SHOTS}/profile-renamed.png`, fullPage: true });

  const before = (await (await admin.request.get("/api/policies")).json()) as {
    rules: { id: string; name: string }[];
    groups: { id: string }[];
  };
  const firstRule = before.rules[0]?.id ?? "";
  expect(firstRule).not.toBe("");
  const rule = { name: "Direct POST", required_approvals: 2, eligible_roles: ["approver"], eligible_group_ids: [] };

  // Without a fresh assertion every kind of policy write is refused server-side, before anything changes.
  const refusals = [
    await admin.request.post("/api/policies", { headers: write(), data: rule }),
    await admin.request.put(`/api/policies/${firstRule}`, { headers: write(), data: rule }),
    await admin.request.post(`/api/policies/${firstRule}/move`, { headers: write(), data: { position: 1 } }),
    await admin.request.delete(`/api/policies/${firstRule}`, { headers: write() }),
    await admin.request.post("/api/policies/groups", { headers: write(), data: { name: "Direct", user_ids: [] } }),
  ];
  for (const r of refusals) {
    expect(r.status(), await r.text()).toBe(403);
    expect(await r.json()).toMatchObject({
      error: "step_up_required",
      details: { reason: "step_up_missing", action: "approval_policy.change" },
    });
  }
  const after = (await (await admin.request.get("/api/policies")).json()) as typeof before;
  expect(after.rules).toEqual(before.rules);
  expect(after.groups).toEqual(before.groups);
  const audited = await auditOf(admin, "approval_policy.refused");
  expect(audited.length).toBeGreaterThanOrEqual(refusals.length);
  expect(audited.every((e) => e.outcome === "refused" && e.details.reason === "step_up_missing")).toBe(true);
  expect(audited.map((e) => e.object_id)).toEqual(expect.arrayContaining([firstRule, "new_rule", "new_group"]));

  // From the policies page the administrator confirms with the passkey, and the rule is created.
  await admin.goto("/policies");
  await expect(admin.getByTestId("policy-step-up-note")).toBeVisible();
  await expect(admin.getByTestId("passkey-banner")).toHaveCount(0);
  await admin.getByTestId("new-rule").click();
  const form = admin.getByRole("form", { name: "New rule" });
  await form.getByLabel("Name").fill("Passkey rule");
  await form.getByLabel("Batch currency (empty: any)").fill("SEK");
  await form.getByLabel("From amount (inclusive)").fill("5000000.00");
  const options = admin.waitForRequest((r) => r.url().endsWith("/api/session/step-up/options"));
  const created = admin.waitForResponse((r) => r.url().endsWith("/api/policies") && r.request().method() === "POST");
  await admin.getByTestId("save-rule").click();
  expect((await options).postDataJSON()).toEqual({ action: "approval_policy.change", subjects: ["new_rule"] });
  const createdRes = await created;
  expect(createdRes.status(), await createdRes.text()).toBe(201);
  const createProof = (await createdRes.request().allHeaders())["x-step-up"] ?? "";
  expect(createProof).not.toBe("");
  const newRule = ((await createdRes.json()) as { id: string }).id;
  const row = admin.locator('[data-testid="policy-row"][data-name="Passkey rule"]');
  await expect(row).toBeVisible();

  // Moving it up: another confirmation, for that rule.
  const moved = admin.waitForResponse((r) => r.url().endsWith(`/api/policies/${newRule}/move`));
  await admin.getByRole("button", { name: "Move up: Passkey rule" }).click();
  const movedRes = await moved;
  expect(movedRes.status(), await movedRes.text()).toBe(200);
  await admin.screenshot({ path: `${SHOTS}/policies.png`, fullPage: true });

  // The proof made for creating a rule does not cover changing one.
  const narrow = await admin.request.put(`/api/policies/${newRule}`, {
    headers: write({ "X-Step-Up": createProof }),
    data: rule,
  });
  expect(narrow.status()).toBe(403);
  expect(await narrow.json()).toMatchObject({ details: { reason: "step_up_wrong_scope" } });

  // Deleting it from the page (the browser's confirm accepted).
  admin.once("dialog", (d) => void d.accept());
  const deleted = admin.waitForResponse((r) => r.url().endsWith(`/api/policies/${newRule}`));
  await admin.getByRole("button", { name: "Delete: Passkey rule" }).click();
  expect((await deleted).status()).toBe(204);
  await expect(row).toHaveCount(0);

  const successes = [
    ...(await auditOf(admin, "approval_policy.create")),
    ...(await auditOf(admin, "approval_policy.move")),
    ...(await auditOf(admin, "approval_policy.delete")),
  ];
  expect(successes.filter((e) => e.object_id === newRule).map((e) => e.outcome)).toEqual([
    "success",
    "success",
    "success",
  ]);
});
