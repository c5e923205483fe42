/**
 * Users and notifications end to end (docs/users-and-notifications.md), on a dashboard of its own
 * (e2e/second-dashboard.ts) whose `SMTP_URL` points at a real SMTP server on loopback that this spec starts first
 * (lib/notify/testing/smtp-sink.ts, the `smtp-server` package): the shared e2e servers send no e-mail and no other
 * spec adds users or batches here, so who is told what can be asserted exactly.
 *
 * The admin adds a user in the browser (approver, one company); the invitation e-mail arrives, and the spec reads its
 * recipient, subject and link from the delivered message; the new user sets a password through that link and signs
 * in with the role and company given. The treasurer submits a batch in that company: the eligible approvers (the demo
 * approvers, the lead and the new user; not the treasurer who created it, the viewer or the admin) get one e-mail
 * each, and the new user's bell count and approvals badge rise. She rejects it with a reason, and the rejection
 * reaches the treasurer by e-mail and in his bell. Screenshots of /users and /invite at 390 and 1440 px go to
 * /tmp/shots-notify.
 */
import { mkdirSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../lib/notify/testing/smtp-sink";
import { startSecondDashboard, signInOn, type SecondDashboard } from "./second-dashboard";

const SHOTS = "/tmp/shots-notify";
const COMPANY = "Nordlys Norge AS";
let sink: SmtpSink | undefined;
let dashboard: SecondDashboard | undefined;

// Its own production dashboard starts in 20-60 s on a quiet machine but took over 3 minutes on a 2-core machine at
// load 20 (a second copy of this spec in parallel under --repeat-each), as passkeys.spec.ts allows 240 s for.
test.describe.configure({ mode: "serial", timeout: 300_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  mkdirSync(SHOTS, { recursive: true });
  sink = await startSmtpSink();
  dashboard = await startSecondDashboard({
    env: { SMTP_URL: sink.url, SMTP_FROM: "Treasury e2e <treasury@e2e.local>" },
    readyTimeoutMs: 270_000,
  });
});

test.afterAll(async () => {
  await dashboard?.stop();
  await sink?.close();
});

/** The messages delivered so far that `match`, once at least `n` arrived (polled; fails with what did arrive). */
async function mailsTo(match: (m: ReceivedMail) => boolean, n = 1): Promise<ReceivedMail[]> {
  await expect
    .poll(() => (sink?.received ?? []).filter(match).length, {
      message: `e-mails received: ${JSON.stringify((sink?.received ?? []).map((m) => [m.to, m.subject]))}`,
      timeout: 30_000,
    })
    .toBeGreaterThanOrEqual(n);
  return (sink?.received ?? []).filter(match);
}

/** How many batches wait for the page's user (GET /api/treasury/approvals/waiting, the navigation badge's source). */
async function waitingCount(page: Page): Promise<number> {
  const r = await page.request.get("/api/treasury/approvals/waiting");
  expect(r.status(), await r.text()).toBe(200);
  return ((await r.json()) as { waiting: number }).waiting;
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1360, height: 860 });
}

test("an invited approver is told of a batch by e-mail and in the bell; a rejection reaches its creator", async ({
  browser,
}) => {
  const base = dashboard?.base ?? "";
  const run = crypto.randomUUID().slice(0, 6);
  const email = `nina.${run}@e2e.local`;
  const name = `Nina Newcomer ${run}`;
  const password = `nina-password-${run}`;

  // The admin adds her in the browser: approver, one company.
  const admin = await signInOn(browser, base, "admin@demo.local");
  await admin.goto("/users");
  await admin.getByTestId("add-user").click();
  const dialog = admin.getByTestId("user-dialog");
  await dialog.getByTestId("user-name").fill(name);
  await dialog.getByTestId("user-email").fill(email);
  await dialog.getByTestId("user-role-viewer").uncheck();
  await dialog.getByTestId("user-role-approver").check();
  await dialog.getByTestId("user-all-companies").uncheck();
  await dialog.getByTestId(`user-company-${COMPANY}`).check();
  await dialog.getByTestId("save-user").click();
  const linkDialog = admin.getByTestId("invitation-link-dialog");
  await expect(linkDialog).toContainText("It was sent by e-mail.");
  const shownUrl = await linkDialog.getByTestId("invitation-url").inputValue();
  await linkDialog.getByRole("button", { name: "Done" }).click();
  await expect(admin.getByTestId(`user-row-${email}`)).toContainText(COMPANY);
  await shoot(admin, "users");

  // The invitation arrives: to her alone, with the link the admin saw.
  const [invitation] = await mailsTo((m) => m.to.includes(email));
  expect(invitation?.to).toEqual([email]);
  expect(invitation?.subject).toBe("You are invited to the Treasury Dashboard");
  expect(invitation?.link).toBe(shownUrl);
  expect(invitation?.link).toMatch(new RegExp(`^${base}/invite#`));

  // She sets her password through the link and signs in with the role and company given.
  const nina = await (await browser.newContext({ baseURL: base })).newPage();
  await nina.goto(invitation?.link ?? "");
  await expect(nina.getByTestId("invite-email")).toBeVisible();
  await shoot(nina, "invite");
  await nina.getByTestId("invite-email").fill(email);
  await nina.getByTestId("invite-password").fill(password);
  await nina.getByTestId("invite-repeat").fill(password);
  await nina.getByTestId("invite-submit").click();
  await expect(nina.getByRole("status")).toContainText("Your password is set.");
  await nina.getByTestId("invite-sign-in").click();
  await nina.getByLabel("E-mail").fill(email);
  await nina.getByLabel("Password").fill(password);
  await nina.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(nina.getByTestId("user-name")).toHaveText(name);
  await expect(nina.getByTestId("user-roles")).toHaveText("approver");
  await expect(nina.getByTestId("company-switcher").locator("option")).toHaveText([/^Nordlys Norge AS /]);
  await expect(nina.getByTestId("notification-count")).toHaveCount(0);
  // The demo data may already hold batches waiting in that company: the badge must rise by this one.
  const waitingBefore = await waitingCount(nina);

  // The treasurer creates a batch in that company and submits it in the browser.
  const treasurer = await signInOn(browser, base, "treasurer@demo.local");
  const companies = (await (await treasurer.request.get("/api/treasury/companies")).json()) as {
    items: { id: string; name: string }[];
  };
  const companyId = companies.items.find((c) => c.name === COMPANY)?.id ?? "";
  expect(companyId, COMPANY).not.toBe("");
  await treasurer.request.post("/api/session/company", {
    headers: { Origin: base, "Idempotency-Key": crypto.randomUUID() },
    data: { company_id: companyId },
  });
  const created = await treasurer.request.post("/api/treasury/payments/batches", {
    headers: { Origin: base, "Idempotency-Key": crypto.randomUUID() },
    data: {
      company_id: companyId,
      currency: "NOK",
      instructions: [
        {
          amount: "4210.50",
          currency: "NOK",
          creditor_name: "Fjordkraft AS",
          creditor_iban: "NO9386011117947",
          end_to_end_id: `NOTIFY-${run}`,
        },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const batchId = ((await created.json()) as { id: string }).id;
  await treasurer.goto(`/payments/${batchId}`);
  await treasurer.getByTestId("submit-batch").click();
  await treasurer.getByTestId("confirm-submit").click();
  await expect(treasurer.locator("[data-status]").first()).toHaveAttribute("data-status", "pending_approval");

  // The eligible approvers are told by e-mail, with a link to the approvals queue.
  const eligible = ["approver@demo.local", "approver2@demo.local", "approver3@demo.local", "lead@demo.local", email];
  const waiting = (m: ReceivedMail) => m.subject === `Batch ${batchId.slice(0, 8)} waits for your approval`;
  for (const m of await mailsTo(waiting, eligible.length)) {
    expect(m.to).toHaveLength(1);
    // The amount formatted like everywhere else (the recipient's locale is unknown: en-GB grouping).
    expect(m.text).toContain("NOK 4,210.50");
    expect(m.link).toBe(`${base}/approvals`);
  }

  // Her bell and the approvals badge rise.
  await nina.reload();
  await expect(nina.getByTestId("notification-count")).toHaveText("1");
  expect(await waitingCount(nina)).toBe(waitingBefore + 1);
  await expect(nina.getByTestId("approvals-waiting")).toContainText(`${waitingBefore + 1} waiting for your approval`);
  await nina.getByTestId("notification-bell").click();
  await expect(nina.getByRole("region", { name: "Notifications", exact: true })).toContainText(
    `Batch ${batchId.slice(0, 8)} waits for your approval`,
  );
  // The bell formats the stored amount in the viewer's locale (the browser's: en-US here), never raw.
  await expect(nina.getByRole("region", { name: "Notifications", exact: true })).toContainText(/\(NOK\s4,210\.50\)/);
  await expect(nina.getByRole("region", { name: "Notifications", exact: true })).not.toContainText("[[");

  // She rejects it with a reason; the rejection reaches the treasurer by e-mail and in his bell.
  const reason = `Wrong supplier account ${run}`;
  await nina.goto("/approvals");
  const row = nina.locator(`[data-testid="approval-row"][data-batch-id="${batchId}"]`);
  await row.getByTestId("reject").click();
  await nina.getByTestId("reject-reason").fill(reason);
  await nina.getByTestId("confirm-decision").click();
  await expect(row).toHaveCount(0);
  const [rejection] = await mailsTo((m) => m.subject === `Batch ${batchId.slice(0, 8)} was rejected`);
  expect(rejection?.to).toEqual(["treasurer@demo.local"]);
  expect(rejection?.text).toContain(reason);
  expect(rejection?.link).toBe(`${base}/payments/${batchId}`);
  await treasurer.reload();
  await expect(treasurer.getByTestId("notification-count")).toHaveText("1");

  // The outbox sends in the order it was written, so every approval e-mail of the batch was out before the
  // rejection: only the eligible approvers got one, each exactly once.
  const told = (sink?.received ?? []).filter(waiting).flatMap((m) => m.to);
  expect(told.toSorted()).toEqual(eligible.toSorted());
});
