import { randomUUID } from "node:crypto";
import { expect, request as playwrightRequest, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { BASE_URL } from "../playwright.config";
import { storageState, type RoleKey } from "./fixtures";

/** API-level checks of the BFF. */

const ORIGIN = { Origin: BASE_URL };

async function as(
  role: RoleKey | null,
  extraCookies: { name: string; value: string }[] = [],
): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({
    baseURL: BASE_URL,
    storageState: role ? storageState(role) : undefined,
  });
  if (extraCookies.length) {
    const state = await ctx.storageState();
    await ctx.dispose();
    return playwrightRequest.newContext({
      baseURL: BASE_URL,
      storageState: {
        ...state,
        cookies: [
          ...state.cookies,
          ...extraCookies.map((c) => ({
            ...c,
            domain: "127.0.0.1",
            path: "/",
            expires: -1,
            httpOnly: true,
            secure: false,
            sameSite: "Lax" as const,
          })),
        ],
      },
    });
  }
  return ctx;
}

async function companyIds(role: RoleKey): Promise<string[]> {
  const ctx = await as(role);
  const res = await ctx.get("/api/treasury/companies");
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { items: { id: string }[] };
  await ctx.dispose();
  return body.items.map((c) => c.id);
}

/** GETs each of `paths` with `ctx`, expecting `status` (a failure names the path); returns the responses in order. */
async function getEach(ctx: APIRequestContext, paths: readonly string[], status: number): Promise<APIResponse[]> {
  const responses: APIResponse[] = [];
  for (const path of paths) {
    const res = await ctx.get(path);
    expect(res.status(), path).toBe(status);
    responses.push(res);
  }
  return responses;
}

test("unauthenticated BFF calls are 401 with the one error shape", async () => {
  const anon = await as(null);
  const refused = await getEach(
    anon,
    ["/api/treasury/accounts", "/api/treasury/companies", "/api/treasury/approvals/pending", "/api/audit"],
    401,
  );
  for (const res of refused) {
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ error: "authentication_failed", message: "Sign in to continue." });
    expect(typeof body.request_id).toBe("string");
  }
  const write = await anon.post("/api/treasury/payments/batches", {
    headers: { ...ORIGIN, "Idempotency-Key": randomUUID() },
    data: {},
  });
  expect(write.status()).toBe(401);
  await anon.dispose();
});

test("a viewer's write is 403", async () => {
  const viewer = await as("viewer");
  const [company] = await companyIds("viewer");
  const res = await viewer.post("/api/treasury/payments/batches", {
    headers: { ...ORIGIN, "Idempotency-Key": randomUUID() },
    data: {
      company_id: company,
      currency: "NOK",
      instructions: [
        { amount: "10.00", currency: "NOK", creditor_name: "A", creditor_iban: "NO9386011117947", end_to_end_id: "E1" },
      ],
    },
  });
  expect(res.status()).toBe(403);
  expect(await res.json()).toMatchObject({ error: "permission_denied" });
  await viewer.dispose();
});

test("a user limited to some companies gets 403 for another company, whatever the cookie says", async () => {
  const all = await companyIds("admin");
  const mine = await companyIds("viewer");
  expect(mine.length).toBeLessThan(all.length);
  const other = all.find((id) => !mine.includes(id));
  if (!other) throw new Error("no company outside the viewer's");
  const viewer = await as("viewer", [{ name: "td_company", value: other }]);
  await getEach(
    viewer,
    [
      "/api/treasury/accounts",
      "/api/treasury/transactions",
      "/api/treasury/reporting/cashflow/daily",
      "/api/treasury/payments/batches",
    ],
    403,
  );
  // Naming the company explicitly on a cross-company list is refused too.
  const plain = await as("viewer");
  expect((await plain.get(`/api/treasury/reconciliation/matches?company_id=${other}`)).status()).toBe(403);
  // The switcher refuses it.
  const sw = await plain.post("/api/session/company", {
    headers: { ...ORIGIN, "Idempotency-Key": randomUUID() },
    data: { company_id: other },
  });
  expect(sw.status()).toBe(403);
  // A company of the user's own works.
  const ok = await plain.post("/api/session/company", {
    headers: { ...ORIGIN, "Idempotency-Key": randomUUID() },
    data: { company_id: mine[1] ?? mine[0] },
  });
  expect(ok.status()).toBe(200);
  await viewer.dispose();
  await plain.dispose();
});

test("cross-origin or Origin-less writes are refused", async () => {
  const t = await as("treasurer");
  // A company the treasurer may use: only the Origin check can refuse these writes.
  const [company] = await companyIds("treasurer");
  const data = { company_id: company };
  const evil = await t.post("/api/session/company", {
    headers: { Origin: "http://evil.example", "Idempotency-Key": randomUUID() },
    data,
  });
  expect(evil.status()).toBe(403);
  expect(await evil.json()).toMatchObject({ error: "permission_denied" });
  expect((await t.post("/api/session/company", { headers: { "Idempotency-Key": randomUUID() }, data })).status()).toBe(
    403,
  );
  // Headers a client or a misconfigured proxy controls do not make another origin the dashboard's own.
  const spoofed = await t.post("/api/session/company", {
    headers: {
      Origin: "http://evil.example",
      "X-Forwarded-Host": "evil.example",
      "X-Forwarded-Proto": "http",
      "Idempotency-Key": randomUUID(),
    },
    data,
  });
  expect(spoofed.status()).toBe(403);
  // localhost is another origin than the configured 127.0.0.1.
  const localhost = await t.post("/api/session/company", {
    headers: { Origin: BASE_URL.replace("127.0.0.1", "localhost"), "Idempotency-Key": randomUUID() },
    data,
  });
  expect(localhost.status()).toBe(403);
  // The same write from the dashboard's own origin is accepted.
  expect(
    (await t.post("/api/session/company", { headers: { ...ORIGIN, "Idempotency-Key": randomUUID() }, data })).status(),
  ).toBe(200);
  await t.dispose();
});

test("input is parsed with the contract: 400 names the field; unknown query parameters are dropped", async () => {
  const t = await as("treasurer");
  const bad = await t.get("/api/treasury/transactions?from_date=2026-02-30");
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toMatchObject({
    error: "validation_error",
    details: { errors: { from_date: expect.any(Array) } },
  });
  expect((await t.get("/api/treasury/accounts/123")).status()).toBe(400);
  const extra = await t.get("/api/treasury/transactions?page_size=5&sort=evil&company=x");
  expect(extra.status()).toBe(200);
  expect(((await extra.json()) as { items: unknown[] }).items.length).toBeLessThanOrEqual(5);
  const [company] = await companyIds("treasurer");
  const valid = {
    company_id: company,
    currency: "NOK",
    instructions: [
      { amount: "1.00", currency: "NOK", creditor_name: "A", creditor_iban: "NO9386011117947", end_to_end_id: "K1" },
    ],
  };
  const noKey = await t.post("/api/treasury/payments/batches", { headers: ORIGIN, data: valid });
  expect(noKey.status()).toBe(400);
  expect(await noKey.json()).toMatchObject({ details: { errors: { "Idempotency-Key": expect.any(Array) } } });
  await t.dispose();
});

test(
  "a treasurer's batch: created, submitted, replayed by key, audited; four-eyes: two different approvers, each " +
    "counted once",
  async () => {
    const t = await as("treasurer");
    const [company] = await companyIds("treasurer");
    const key = randomUUID();
    // At or above the four-eyes threshold in any demo currency (NOK 1,000,000 at most): two approvals are required.
    const body = {
      company_id: company,
      currency: "NOK",
      instructions: [
        {
          amount: "1250000.00",
          currency: "NOK",
          creditor_name: "Leverandør AS",
          creditor_iban: "NO93 8601 1117 947",
          end_to_end_id: `E2E-${key.slice(0, 8)}`,
        },
      ],
    };
    const created = await t.post("/api/treasury/payments/batches", {
      headers: { ...ORIGIN, "Idempotency-Key": key },
      data: body,
    });
    expect(created.status()).toBe(201);
    const batch = (await created.json()) as { id: string; status: string; total_amount: string };
    expect(batch).toMatchObject({ status: "created", total_amount: "1250000.00" });
    // The same browser key replays the same batch (the BFF derives a stable upstream key per user).
    const again = await t.post("/api/treasury/payments/batches", {
      headers: { ...ORIGIN, "Idempotency-Key": key },
      data: body,
    });
    expect(((await again.json()) as { id: string }).id).toBe(batch.id);
    const submitted = await t.post(`/api/treasury/payments/batches/${batch.id}/submit`, {
      headers: { ...ORIGIN, "Idempotency-Key": randomUUID() },
    });
    expect(submitted.status()).toBe(202);

    const approver = await as("approver");
    const queue = await approver.get("/api/treasury/approvals/pending?page_size=1000");
    expect(queue.status()).toBe(200);
    type Pending = { id: string; object_id: string; state: string; required_count: number; approved_count: number };
    const pending = ((await queue.json()) as { items: Pending[] }).items.find((a) => a.object_id === batch.id);
    expect(pending).toMatchObject({ state: "pending", required_count: 2, approved_count: 0 });

    // Four-eyes: one approver counts once; her second approval is refused and changes nothing; a second person
    // completes it.
    const approve = (ctx: APIRequestContext) =>
      ctx.post(`/api/treasury/approvals/${pending?.id}/approve`, {
        headers: { ...ORIGIN, "Idempotency-Key": randomUUID() },
      });
    const first = await approve(approver);
    expect(first.status(), await first.text()).toBe(200);
    expect(await first.json()).toMatchObject({ state: "partially_approved", approved_count: 1 });
    const twice = await approve(approver);
    expect(twice.status()).toBe(409);
    const still = (
      (await (await approver.get("/api/treasury/approvals/pending?page_size=1000")).json()) as { items: Pending[] }
    ).items.find((a) => a.id === pending?.id);
    expect(still).toMatchObject({ state: "partially_approved", approved_count: 1 });
    const approver2 = await as("approver2");
    const second = await approve(approver2);
    expect(second.status(), await second.text()).toBe(200);
    expect(await second.json()).toMatchObject({ state: "approved", approved_count: 2 });
    await approver2.dispose();

    const admin = await as("admin");
    const audit = (await (await admin.get("/api/audit")).json()) as {
      items: { action: string; object_id: string | null; user_email: string; outcome: string }[];
    };
    const creates = audit.items.filter(
      (e) => e.action === "payment_batch.create" && e.object_id === batch.id && e.user_email === "treasurer@demo.local",
    );
    // The second POST with the same key was answered from the API's idempotency store: logged as a replay, not a second
    // success.
    expect(creates.map((e) => e.outcome).sort()).toEqual(["replayed", "success"]);
    expect(audit.items.some((e) => e.action === "payment_batch.submit" && e.object_id === batch.id)).toBe(true);
    for (const c of [t, approver, admin]) await c.dispose();
  },
);

test.describe("GET /metrics on the production server", () => {
  test.use({ storageState: storageState("treasurer") });

  test("after a page view and BFF calls, a scraper reads them; request headers do not decide who may", async ({
    page,
  }) => {
    const scraper = await playwrightRequest.newContext({ baseURL: BASE_URL }); // no session
    /** The sum of every sample of counter `name` in a scrape. */
    const total = (scrape: string, name: string) =>
      [...scrape.matchAll(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, "gm"))].reduce((n, m) => n + Number(m[1]), 0);
    const before = await (await scraper.get("/metrics")).text();

    await page.goto("/accounts");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const list = await page.request.get("/api/treasury/accounts");
    expect(list.status()).toBe(200);
    const [first] = ((await list.json()) as { items: { id: string }[] }).items;
    expect((await page.request.get(`/api/treasury/accounts/${first?.id}`)).status()).toBe(200);
    // A page size no other test asks for: a cache miss, so at least one upstream call.
    const pageSize = 50 + Math.floor(Math.random() * 40);
    expect((await page.request.get(`/api/treasury/transactions?page_size=${pageSize}`)).status()).toBe(200);

    const res = await scraper.get("/metrics");
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    for (const name of ["dashboard_upstream_calls_total", "dashboard_upstream_cache_events_total"])
      expect(total(text, name), name).toBeGreaterThan(total(before, name));
    const count = (route: string) =>
      Number(
        new RegExp(
          `^dashboard_bff_duration_seconds_count\\{route="${route.replace(/[[\]]/g, "\\$&")}",status="200"\\} (\\d+)$`,
          "m",
        ).exec(text)?.[1] ?? 0,
      );
    expect(count("/api/treasury/accounts")).toBeGreaterThanOrEqual(1);
    expect(count("/api/treasury/accounts/[id]")).toBeGreaterThanOrEqual(1);
    for (const name of [
      "dashboard_upstream_calls_total",
      "dashboard_upstream_cache_events_total",
      "dashboard_rate_budget_remaining",
    ])
      expect(text).toContain(`# TYPE ${name} `);

    // Without METRICS_TOKEN the dashboard serves metrics because it listens on loopback (its bind address), never
    // judged from headers a client can forge (docs/operations.md): a forwarded address changes nothing. The refusal on
    // a non-loopback bind address is tested in lib/server/metrics-access.test.ts.
    const remote = await scraper.get("/metrics", { headers: { "X-Forwarded-For": "203.0.113.7" } });
    expect(remote.status()).toBe(200);
    expect(await remote.text()).toContain("dashboard_");
    await scraper.dispose();
  });
});
