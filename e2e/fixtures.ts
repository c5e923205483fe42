/**
 * Shared e2e data and helpers: the demo users (from the dashboard's seed), their expected areas, a page per role, the
 * axe scan with a screenshot.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Browser, type Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../lib/db/demo-users";
import { BASE_URL } from "../playwright.config";

export type RoleKey = "viewer" | "treasurer" | "approver" | "approver2" | "approver3" | "admin" | "lead";

/** Each demo user, with the role label the shell shows for them. */
export const USERS: Record<RoleKey, { email: string; name: string; roles: string }> = {
  viewer: { email: "viewer@demo.local", name: "Vera Viewer", roles: "viewer" },
  treasurer: { email: "treasurer@demo.local", name: "Tomas Treasurer", roles: "treasurer" },
  approver: { email: "approver@demo.local", name: "Anna Approver", roles: "approver" },
  approver2: { email: "approver2@demo.local", name: "Aksel Approver", roles: "approver" },
  approver3: { email: "approver3@demo.local", name: "Otto Approver", roles: "approver" },
  admin: { email: "admin@demo.local", name: "Ada Admin", roles: "admin" },
  lead: { email: "lead@demo.local", name: "Lina Lead", roles: "treasurer, approver" },
};

export const PASSWORD = DEMO_PASSWORD;

const READ_AREAS = [
  "overview",
  "accounts",
  "transactions",
  "reports",
  "payments",
  "counterparties",
  "reconciliation",
  "organization",
];

/** READ_AREAS with approvals (before reconciliation) and the audit log: what every approver sees. */
const APPROVER_AREAS = [...READ_AREAS.slice(0, 6), "approvals", ...READ_AREAS.slice(6), "audit"];

/** The navigation each role must show, in order (docs/architecture.md#users-roles-and-permissions). */
export const EXPECTED_AREAS: Record<RoleKey, string[]> = {
  viewer: READ_AREAS,
  // Bank connections: the local API advertises GET /bank-connections; treasurers see the health read-only.
  treasurer: [...READ_AREAS, "bank-connections"],
  approver: APPROVER_AREAS,
  approver2: APPROVER_AREAS,
  approver3: APPROVER_AREAS,
  // Statements: the local API advertises POST /statements, so admins see the upload page.
  admin: [
    ...READ_AREAS.slice(0, 7),
    "webhooks",
    "organization",
    "policies",
    "categories",
    "reconciliation-rules",
    "statements",
    "bank-connections",
    "audit",
    "users",
  ],
  lead: [...APPROVER_AREAS.slice(0, -1), "bank-connections", "audit"],
};

/**
 * Signed-in state per role. Kept per server port: a session is signed with the
 * secret of the server that issued it, so runs on other ports (another
 * checkout's or a parallel run's) must not overwrite it.
 */
export function storageState(role: RoleKey): string {
  return path.join("e2e", ".auth", process.env.E2E_PORT ?? "3210", `${role}.json`);
}

export const SCREENSHOTS = path.join("e2e", "screenshots");

/** A page in a fresh browser context signed in as `role` (storage state from the setup project). */
export async function pageAs(browser: Browser, role: RoleKey): Promise<Page> {
  const ctx = await browser.newContext({ storageState: storageState(role), baseURL: BASE_URL });
  return ctx.newPage();
}

/**
 * The axe rule tags every scan runs: WCAG 2.0 / 2.1 / 2.2 A and AA (2.2 AA brings target size, 24 × 24 px) and
 * axe's best practices, which a scan without tags ran too.
 */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** The part of an axe result `expectNoSeriousViolations` reads. */
type AxeViolations = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"];

/**
 * Fails with the serious / critical axe violations among `violations`, each listed as
 * "<name>: <rule id> (<impact>) <first three node selectors>"; minor and moderate ones pass.
 */
export function expectNoSeriousViolations(name: string, violations: AxeViolations): void {
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map(
      (v) =>
        `${name}: ${v.id} (${v.impact}) ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(" | ")}`,
    ),
  ).toEqual([]);
}

/**
 * Waits until the page has a document title again. After a client-side navigation (a filter written to the URL)
 * Next.js sets the new page's metadata a moment after the content, and an axe scan in that moment found no <title>
 * (`document-title`) in a fresh-clone CI run on 2026-11-28; a title that never comes still fails here.
 */
export async function settledTitle(page: Page): Promise<void> {
  await expect(page).toHaveTitle(/\S/);
}

/**
 * Scans the page with axe (no serious or critical violation allowed) and
 * saves a full-page screenshot as e2e/screenshots/<name>.png.
 */
export async function scanAndShoot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  await settledTitle(page);
  // Toasts are transient and fade in: axe measures their text mid-animation (partial opacity) and reports
  // low contrast that a person never sees once the toast has settled, so the toaster region is left out.
  const r = await new AxeBuilder({ page }).withTags(AXE_TAGS).exclude("[data-sonner-toaster]").analyze();
  expectNoSeriousViolations(name, r.violations);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Headers of a BFF write from a test: the dashboard's Origin and a fresh (or given) Idempotency-Key. */
export function writeHeaders(key: string = crypto.randomUUID()): Record<string, string> {
  return { Origin: BASE_URL, "Idempotency-Key": key };
}

/** One instruction of `createBatchVia`; the currency is the batch's. */
export interface TestInstruction {
  amount: string;
  creditor_name: string;
  creditor_iban: string;
  end_to_end_id: string;
}

/**
 * Creates a payment batch through the BFF as the page's user, in their first
 * (default) company, and returns its id; fails the test unless the answer is 201.
 * `headers` gives the write's headers (default: this dashboard's Origin, a fresh Idempotency-Key); a spec on another
 * dashboard passes its own.
 */
export async function createBatchVia(
  page: Page,
  currency: string,
  instructions: TestInstruction[],
  headers: () => Record<string, string> = writeHeaders,
): Promise<string> {
  const companies = (await (await page.request.get("/api/treasury/companies")).json()) as { items: { id: string }[] };
  const created = await page.request.post("/api/treasury/payments/batches", {
    headers: headers(),
    data: { company_id: companies.items[0]?.id, currency, instructions: instructions.map((i) => ({ ...i, currency })) },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/**
 * A payment of the spec's own, settled by the simulated bank: the treasurer creates and submits a one-instruction NOK
 * batch in Nordlys Norge AS, an approver approves it (acknowledging any high-risk signal), and the batch is
 * awaited until the bank has completed it. Its booking carries the end-to-end id, so the matcher proposes the pair.
 * Specs that need an open proposal or an unmatched payment make one this way instead of relying on the demo's, which
 * other specs running at the same time may decide. Use an amount and end-to-end id of the spec's own.
 * @returns the batch id and its instruction id
 */
export async function settledPayment(
  browser: Browser,
  instruction: TestInstruction,
): Promise<{ batchId: string; instructionId: string; endToEndId: string }> {
  // The simulated bank rejects an end-to-end id whose SHA-256 starts with a byte below 8 (about 3 %): the first
  // variant of the spec's id that it settles.
  let endToEndId = instruction.end_to_end_id;
  for (let i = 1; (createHash("sha256").update(endToEndId, "utf8").digest()[0] ?? 0) < 8; i++) {
    endToEndId = `${instruction.end_to_end_id}-${i}`;
  }
  const { batchId, treasurer } = await approvedBatch(browser, [{ ...instruction, end_to_end_id: endToEndId }]);
  await expect(async () => {
    const batch = (await (await treasurer.request.get(`/api/treasury/payments/batches/${batchId}`)).json()) as {
      status: string;
    };
    expect(batch.status).toBe("completed");
  }).toPass({ timeout: 90_000 });
  const instructions = (await (
    await treasurer.request.get(`/api/treasury/payments/batches/${batchId}/instructions`)
  ).json()) as { items: { id: string }[] };
  const instructionId = instructions.items[0]?.id ?? "";
  await treasurer.context().close();
  return { batchId, instructionId, endToEndId };
}

/**
 * A NOK batch of the spec's own in the demo's Norwegian operating company, Nordlys Norge AS (the treasurer's default
 * company may hold no NOK account, and the bank would reject every instruction, AC02): the treasurer creates and
 * submits it, an approver approves it (acknowledging any high-risk signal). With a `requestedExecutionDate` in the
 * future the simulated bank holds it until then, so a spec can answer it as the bank itself (a pain.002).
 * @returns the batch id, its company id, and the treasurer's page with that company selected (close it when done)
 */
export async function approvedBatch(
  browser: Browser,
  instructions: TestInstruction[],
  opts: { requestedExecutionDate?: string } = {},
): Promise<{ batchId: string; companyId: string; treasurer: Page }> {
  const treasurer = await pageAs(browser, "treasurer");
  const companies = (await (await treasurer.request.get("/api/treasury/companies")).json()) as {
    items: { id: string; name: string }[];
  };
  const company = companies.items.find((c) => c.name === "Nordlys Norge AS");
  expect(company, "the demo company Nordlys Norge AS").toBeDefined();
  await treasurer
    .context()
    .addCookies([
      { name: "td_company", value: company?.id ?? "", domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Lax" },
    ]);
  const created = await treasurer.request.post("/api/treasury/payments/batches", {
    headers: writeHeaders(),
    data: {
      company_id: company?.id,
      currency: "NOK",
      instructions: instructions.map((i) => ({ ...i, currency: "NOK" })),
      ...(opts.requestedExecutionDate ? { requested_execution_date: opts.requestedExecutionDate } : {}),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const batchId = ((await created.json()) as { id: string }).id;
  const submitted = await treasurer.request.post(`/api/treasury/payments/batches/${batchId}/submit`, {
    headers: writeHeaders(),
  });
  expect(submitted.status(), await submitted.text()).toBe(202);
  const approver = await pageAs(browser, "approver");
  const queue = (await (await approver.request.get("/api/treasury/approvals/queue")).json()) as {
    items: { approval: { id: string; object_id: string }; risk: { requires_acknowledgement: string[] } | null }[];
  };
  const item = queue.items.find((i) => i.approval.object_id === batchId);
  expect(item, "the batch in the approval queue").toBeDefined();
  const approved = await approver.request.post(`/api/treasury/approvals/${item?.approval.id}/approve`, {
    headers: writeHeaders(),
    data: { acknowledged_signals: item?.risk?.requires_acknowledgement ?? [] },
  });
  expect(approved.status(), await approved.text()).toBe(200);
  await approver.context().close();
  return { batchId, companyId: company?.id ?? "", treasurer };
}
