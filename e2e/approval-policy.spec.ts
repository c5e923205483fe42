import { randomUUID } from "node:crypto";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { BASE_URL } from "../playwright.config";
import { RISK_SIGNAL_CODES } from "../lib/payments/risk-signals";
import { USERS, pageAs, scanAndShoot, storageState, type RoleKey } from "./fixtures";

/**
 * Approval policies end to end: an admin defines a group and a rule needing three approvers from it; the rule is
 * stored with a batch at submission; an approver outside the group is refused (403, audited), group members'
 * approvals are held by the dashboard until the third completes the API's count; refusals and a failed sign-in
 * appear in the audit log. Screenshots go to /tmp/shots-policy.
 */

const ORIGIN = { Origin: BASE_URL };
const SHOTS = "/tmp/shots-policy";
const headers = () => ({ ...ORIGIN, "Idempotency-Key": randomUUID() });
const as = (role: RoleKey): Promise<APIRequestContext> =>
  playwrightRequest.newContext({ baseURL: BASE_URL, storageState: storageState(role) });

test("a policy needing three approvers from a group is met only by that group; refusals are audited", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const run = randomUUID().slice(0, 6);
  const admin = await as("admin");
  const view = (await (await admin.get("/api/policies")).json()) as { users: { id: string; email: string }[] };
  const idOf = (role: RoleKey) => view.users.find((u) => u.email === USERS[role].email)?.id ?? "";

  // Bad input is a 400 naming the fields.
  const bad = await admin.post("/api/policies", {
    headers: headers(),
    data: { name: "", required_approvals: 0, eligible_roles: [], eligible_group_ids: [] },
  });
  expect(bad.status()).toBe(400);
  const badBody = (await bad.json()) as { details: { errors: Record<string, string[]> } };
  expect(Object.keys(badBody.details.errors)).toEqual(expect.arrayContaining(["name", "required_approvals"]));

  const groupRes = await admin.post("/api/policies/groups", {
    headers: headers(),
    data: { name: `Treasury leads ${run}`, user_ids: [idOf("approver"), idOf("approver2"), idOf("lead")] },
  });
  expect(groupRes.status(), await groupRes.text()).toBe(201);
  const group = (await groupRes.json()) as { id: string };
  // Narrow on purpose (one NOK amount), so that other specs' batches keep the default rules.
  const ruleRes = await admin.post("/api/policies", {
    headers: headers(),
    data: {
      name: `Three leads ${run}`,
      currency: "NOK",
      min_amount: "777000.00",
      max_amount: "777001.00",
      required_approvals: 3,
      eligible_group_ids: [group.id],
    },
  });
  expect(ruleRes.status(), await ruleRes.text()).toBe(201);
  const rule = (await ruleRes.json()) as { id: string };
  expect(
    (await admin.post(`/api/policies/${rule.id}/move`, { headers: headers(), data: { position: 1 } })).status(),
  ).toBe(200);

  try {
    const adminPage = await pageAs(browser, "admin");
    await adminPage.goto("/policies");
    const row = adminPage.locator(`[data-testid="policy-row"][data-name="Three leads ${run}"]`);
    await expect(row).toContainText(`Rule 1 (Three leads ${run}): NOK, (batch currency) 777,000 – 777,001`);
    await expect(row).toContainText(`→ 3 approvers from Treasury leads ${run}`);
    // The shared server runs in demo mode (step-up optional) and the admin has no passkey: the warning shows.
    await expect(adminPage.getByTestId("passkey-banner")).toContainText("Add a passkey to protect approvals");
    await adminPage.screenshot({ path: `${SHOTS}/policies.png`, fullPage: true });
    await adminPage.getByTestId("new-rule").click();
    await adminPage.getByTestId("save-rule").click();
    await expect(adminPage.getByTestId("error-name")).toBeVisible();
    await adminPage.screenshot({ path: `${SHOTS}/policies-form-errors.png`, fullPage: true });

    // The treasurer creates and submits a NOK 777,000.50 batch: the rule applies and is stored with it.
    const t = await as("treasurer");
    const companies = (await (await t.get("/api/treasury/companies")).json()) as { items: { id: string }[] };
    const company = companies.items[0]?.id ?? "";
    const created = await t.post("/api/treasury/payments/batches", {
      headers: headers(),
      data: {
        company_id: company,
        currency: "NOK",
        instructions: [
          {
            amount: "777000.50",
            currency: "NOK",
            creditor_name: "Leverandør AS",
            creditor_iban: "NO93 8601 1117 947",
            end_to_end_id: `POL-${run}`,
          },
        ],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const batch = (await created.json()) as { id: string };
    const submitted = await t.post(`/api/treasury/payments/batches/${batch.id}/submit`, { headers: headers() });
    expect(submitted.status()).toBe(202);
    expect(await submitted.json()).toMatchObject({
      policy: { explanation: expect.stringContaining(`3 approvers from Treasury leads ${run}`), required_count: 3 },
    });

    const approver = await as("approver");
    const pending = (
      (await (await approver.get("/api/treasury/approvals/pending?page_size=1000")).json()) as {
        items: { id: string; object_id: string }[];
      }
    ).items.find((a) => a.object_id === batch.id);
    expect(pending).toBeTruthy();
    const approve = async (role: RoleKey) => {
      const ctx = await as(role);
      const res = await ctx.post(`/api/treasury/approvals/${pending?.id}/approve?company_id=${company}`, {
        headers: headers(),
        data: { acknowledged_signals: [...RISK_SIGNAL_CODES] },
      });
      const body = (await res.json()) as Record<string, unknown>;
      await ctx.dispose();
      return { status: res.status(), body };
    };

    const outsider = await approve("approver3");
    expect(outsider.status).toBe(403);
    expect(outsider.body).toMatchObject({ details: { reason: "not_eligible" } });
    expect(String(outsider.body.message)).toContain(`Treasury leads ${run}`);

    const first = await approve("approver");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    // The API needs two here (NOK 100,000 in the e2e setup): the first approval is sent, counting 1 of its 2.
    expect(first.body).toMatchObject({
      state: "partially_approved",
      policy: { approvals: 1, required: 3, held: false },
    });
    expect((await approve("approver")).status).toBe(409);
    // The second is held by the dashboard: sending it would complete the API's count before the policy's.
    expect((await approve("approver2")).body).toMatchObject({
      state: "partially_approved",
      approved_count: 1,
      policy: { approvals: 2, held: true },
    });

    // The queue shows the dashboard's count and the policy.
    const leadPage = await pageAs(browser, "lead");
    await leadPage.goto("/approvals");
    const queueRow = leadPage.locator(`tr:has([data-testid="approval-policy"])`, { hasText: `Treasury leads ${run}` });
    await expect(queueRow.getByTestId("approval-count")).toHaveText("2 of 3");
    // The refused attempt is in the audit log but is no approval.
    await expect(queueRow).toContainText(USERS.approver2.name);
    await expect(queueRow).not.toContainText(USERS.approver3.name);
    await leadPage.screenshot({ path: `${SHOTS}/queue.png`, fullPage: true });

    const third = await approve("lead");
    expect(third.status, JSON.stringify(third.body)).toBe(200);
    expect(third.body).toMatchObject({ state: "approved", approved_count: 2, policy: { approvals: 3, held: false } });

    // A failed sign-in (an unknown account: logged like a wrong password).
    const anon = await browser.newContext({ baseURL: BASE_URL });
    const login = await anon.newPage();
    await login.goto("/login");
    await login.getByLabel("E-mail").fill(`nobody-${run}@demo.local`);
    await login.getByLabel("Password").fill("not-the-password");
    await login.getByRole("button", { name: "Sign in", exact: true }).click();
    // The refusal shown proves the credentials were checked (a click before hydration only reloads /login).
    await expect(async () => {
      if (!(await login.locator("#login-error").isVisible())) {
        await login.getByLabel("E-mail").fill(`nobody-${run}@demo.local`);
        await login.getByLabel("Password").fill("not-the-password");
        await login.getByRole("button", { name: "Sign in", exact: true }).click();
      }
      await expect(login.locator("#login-error")).toHaveText("The e-mail or password is not correct.", {
        timeout: 5_000,
      });
    }).toPass({ timeout: 30_000 });
    await expect(login).toHaveURL(/\/login/);
    await anon.close();

    // The audit log shows the refusals with their reasons.
    await adminPage.goto("/audit?events=all");
    const refused = adminPage.locator(
      `[data-testid="audit-row"][data-action="approval.approve"][data-user="${USERS.approver3.email}"]`,
    );
    await expect(refused.first()).toContainText("refused");
    await expect(refused.first()).toContainText("reason: not_eligible");
    const twice = adminPage.locator(
      `[data-testid="audit-row"][data-action="approval.approve"][data-user="${USERS.approver.email}"]`,
      { hasText: "already_approved" },
    );
    await expect(twice.first()).toContainText("refused");
    // The failed sign-in's entry is written as the sign-in answers: a page loaded a moment earlier is read again.
    const signIn = adminPage.locator(`[data-testid="audit-row"][data-user="nobody-${run}@demo.local"]`);
    await expect(async () => {
      await adminPage.reload();
      await expect(signIn.first()).toContainText("reason: invalid_credentials", { timeout: 5_000 });
    }).toPass({ timeout: 45_000 });
    await adminPage.screenshot({ path: `${SHOTS}/audit.png`, fullPage: true });
    await scanAndShoot(adminPage, "audit-refusals");
  } finally {
    await admin.delete(`/api/policies/${rule.id}`, { headers: headers() });
    await admin.delete(`/api/policies/groups/${group.id}`, { headers: headers() });
    await admin.dispose();
  }
});
