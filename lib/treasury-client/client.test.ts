import { beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { createTreasuryClient, type TreasuryClientConfig } from "./client";
import { TreasuryApiError, TreasuryResponseError, TreasuryTransportError } from "./errors";
import { collectAll } from "./pagination";
import {
  ScriptedUpstream,
  apiError,
  hang,
  json,
  networkError,
  ManualClock,
  TEST_CLIENT,
} from "./testing/scripted-upstream";

const BASE = TEST_CLIENT.baseUrl;
const COMPANY = "11111111-1111-4111-8111-111111111111";
const TENANT = "22222222-2222-4222-8222-222222222222";
const ACC_ID = "33333333-3333-4333-8333-333333333333";
const account = { id: ACC_ID, name: "Operating NOK", currency: "NOK", iban_masked: "NO93****5678", bank_name: "DNB" };
const company = { id: COMPANY, name: "Nordlys AS", orgnr: "912345678", country: "NO" };
const envelope = (results: unknown[], extra: Partial<{ page: number; next: string | null; count: number }> = {}) => ({
  count: extra.count ?? results.length,
  total_pages: 1,
  page: extra.page ?? 1,
  page_size: 100,
  next: extra.next ?? null,
  previous: null,
  results,
});

let up: ScriptedUpstream;
let time: ManualClock;

function client(over: Partial<TreasuryClientConfig> = {}) {
  return createTreasuryClient({
    ...TEST_CLIENT,
    scopes: ["read:ledger", "write:ledger"],
    fetch: up.fetch,
    sleep: time.sleep,
    random: () => 0.5,
    now: time.now,
    ...over,
  });
}

beforeEach(() => {
  up = new ScriptedUpstream();
  time = new ManualClock();
});

describe("tokens", () => {
  it("Form B: form-urlencoded token request with HTTP Basic, cached across calls", async () => {
    up.then(
      () => json(200, envelope([company])),
      () => json(200, envelope([company])),
    );
    const c = client();
    await c.listCompanies({});
    await c.listCompanies({});
    expect(up.tokenRequests).toHaveLength(1);
    const t = up.tokenRequests[0];
    expect(t?.url.pathname).toBe("/public/auth/token/");
    expect(t?.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(t?.headers.get("authorization")).toBe("Basic " + Buffer.from("demo-client:s3cret").toString("base64"));
    expect(new URLSearchParams(t?.body).get("grant_type")).toBe("client_credentials");
    expect(new URLSearchParams(t?.body).get("scope")).toBe("read:ledger write:ledger");
    expect(up.requests[1]?.headers.get("authorization")).toBe("Bearer tok-1");
  });

  it("shares one in-flight token request between concurrent calls", async () => {
    up.then(...Array.from({ length: 5 }, () => () => json(200, envelope([]))));
    const c = client();
    await Promise.all(Array.from({ length: 5 }, () => c.listCompanies({})));
    expect(up.tokenRequests).toHaveLength(1);
  });

  it("renews at expires_in - 300 s, not before", async () => {
    up.then(...Array.from({ length: 3 }, () => () => json(200, envelope([]))));
    const c = client();
    await c.listCompanies({});
    time.t += 3299 * 1000;
    await c.listCompanies({});
    expect(up.tokenRequests).toHaveLength(1);
    time.t += 1000;
    await c.listCompanies({});
    expect(up.tokenRequests).toHaveLength(2);
    expect(up.requests[2]?.headers.get("authorization")).toBe("Bearer tok-2");
  });

  it("on 401 fetches a new token and repeats the call once", async () => {
    up.then(
      () => apiError(401, "authentication_failed"),
      () => json(200, envelope([company])),
    );
    const page = await client().listCompanies({});
    expect(page.items).toEqual([company]);
    expect(up.tokenRequests).toHaveLength(2);
    expect(up.requests.map((r) => r.headers.get("authorization"))).toEqual(["Bearer tok-1", "Bearer tok-2"]);
  });

  it("a second 401 is returned to the caller", async () => {
    up.then(
      () => apiError(401, "authentication_failed", "Token expired"),
      () => apiError(401, "authentication_failed", "Token expired"),
    );
    await expect(client().listCompanies({})).rejects.toMatchObject({ status: 401, code: "authentication_failed" });
    expect(up.requests).toHaveLength(2);
  });

  it("bad client credentials surface as 401 invalid_client without retrying", async () => {
    up.tokenStep = () =>
      json(401, {
        error: "invalid_client",
        error_description: "bad",
        message: "Client authentication failed",
        details: {},
      });
    await expect(client().listCompanies({})).rejects.toMatchObject({
      name: "TreasuryApiError",
      status: 401,
      code: "invalid_client",
    });
    expect(up.tokenRequests).toHaveLength(1);
    expect(up.requests).toHaveLength(0);
  });

  it("a token endpoint outage is retried with backoff", async () => {
    let n = 0;
    up.tokenStep = () =>
      ++n < 3
        ? apiError(503, "service_unavailable")
        : json(200, { access_token: "late", token_type: "Bearer", expires_in: 3600, scope: "" });
    up.then(() => json(200, envelope([])));
    await client().listCompanies({});
    expect(up.tokenRequests).toHaveLength(3);
    expect(time.sleeps).toHaveLength(2);
  });

  it("Form A: JSON tenant-token request, X-Tenant-ID on calls, limit instead of page", async () => {
    up.tokenStep = () =>
      json(200, {
        access_token: "ta",
        token_type: "Bearer",
        expires_in: 3600,
        scope: "read:ledger",
        tenant_id: TENANT,
      });
    up.then(() => json(200, [account]));
    const c = client({ form: "A", tenantId: TENANT });
    const page = await c.listAccounts({ companyId: COMPANY }, { pageSize: 50, page: 3 });
    const t = up.tokenRequests[0];
    expect(t?.url.pathname).toBe("/public/auth/tenant-token");
    expect(JSON.parse(t?.body ?? "{}")).toEqual({
      tenant_id: TENANT,
      grant_type: "client_credentials",
      scope: "read:ledger write:ledger",
    });
    const r = up.requests[0];
    expect(r?.headers.get("x-tenant-id")).toBe(TENANT);
    expect(r?.headers.get("x-company-id")).toBe(COMPANY);
    expect(r?.url.searchParams.get("limit")).toBe("50");
    expect(r?.url.searchParams.has("page")).toBe(false);
    expect(page).toMatchObject({ items: [account], count: null, page: 1, pageSize: 50, next: null });
  });
});

describe("retries", () => {
  it("429 waits Retry-After seconds", async () => {
    up.then(
      () => apiError(429, "throttled", "slow down", { "retry-after": "7" }),
      () => json(200, envelope([])),
    );
    await client().listCompanies({});
    expect(time.sleeps).toEqual([7000]);
  });

  it("429 waits until X-RateLimit-Reset given as epoch seconds", async () => {
    const reset = Math.floor(time.t / 1000) + 12;
    up.then(
      () => apiError(429, "throttled", "slow", { "x-ratelimit-reset": String(reset) }),
      () => json(200, envelope([])),
    );
    await client().listCompanies({});
    expect(time.sleeps).toEqual([12_000]);
  });

  it("429 waits X-RateLimit-Reset given as delta seconds", async () => {
    up.then(
      () => apiError(429, "throttled", "slow", { "x-ratelimit-reset": "3" }),
      () => json(200, envelope([])),
    );
    await client().listCompanies({});
    expect(time.sleeps).toEqual([3000]);
  });

  it("429 without headers backs off; a wait longer than the bound fails at once", async () => {
    up.then(
      () => apiError(429, "throttled"),
      () => json(200, envelope([])),
    );
    await client().listCompanies({});
    expect(time.sleeps).toEqual([125]); // random 0.5 × 250 ms
    up.then(() => apiError(429, "throttled", "slow", { "retry-after": "3600" }));
    await expect(client().listCompanies({})).rejects.toMatchObject({ status: 429, retryAfterSeconds: 3600 });
  });

  it("5xx on GET: exponential backoff with full jitter, bounded attempts", async () => {
    up.then(...Array.from({ length: 4 }, () => () => apiError(503, "service_unavailable")));
    await expect(client().getAccount({}, ACC_ID)).rejects.toMatchObject({ status: 503 });
    expect(up.requests).toHaveLength(4);
    expect(time.sleeps).toEqual([125, 250, 500]);
  });

  it("full jitter draws from [0, ceiling)", async () => {
    up.then(
      () => apiError(500, "internal_error"),
      () => json(200, account),
    );
    await client({ random: () => 0 }).getAccount({}, ACC_ID);
    expect(time.sleeps).toEqual([0]);
  });

  it("network errors on GET are retried", async () => {
    up.then(networkError, () => json(200, account));
    await expect(client().getAccount({}, ACC_ID)).resolves.toEqual(account);
    expect(up.requests).toHaveLength(2);
  });

  it("a write with an Idempotency-Key is retried on 5xx with the same key", async () => {
    up.then(
      () => apiError(502, "internal_error"),
      () => json(200, company),
    );
    const c = client();
    await c.upsertCompany(
      { idempotencyKey: "key-1", companyId: COMPANY },
      { orgnr: "912345678", name: "Nordlys AS", country: "NO" },
    );
    expect(up.requests.map((r) => r.headers.get("idempotency-key"))).toEqual(["key-1", "key-1"]);
    expect(JSON.parse(up.requests[0]?.body ?? "{}")).toEqual({ orgnr: "912345678", name: "Nordlys AS", country: "NO" });
  });

  it("reports an idempotent replay to the caller", async () => {
    up.then(
      () => json(201, company),
      () => json(201, company, { "idempotent-replayed": "true" }),
    );
    const c = client();
    const first: { replayed?: boolean } = {};
    await c.upsertCompany(
      { idempotencyKey: "k", outcome: first },
      { orgnr: "912345678", name: "Nordlys AS", country: "NO" },
    );
    expect(first.replayed).toBe(false);
    const second: { replayed?: boolean } = {};
    await c.upsertCompany(
      { idempotencyKey: "k", outcome: second },
      { orgnr: "912345678", name: "Nordlys AS", country: "NO" },
    );
    expect(second.replayed).toBe(true);
  });

  it("a write without an Idempotency-Key is never retried", async () => {
    up.then(() => apiError(503, "service_unavailable"));
    const c = client();
    // The typed API always demands a key; an empty one models a caller that has none.
    await expect(
      c.upsertCompany({ idempotencyKey: "" }, { orgnr: "912345678", name: "N", country: "NO" }),
    ).rejects.toMatchObject({ status: 503 });
    expect(up.requests).toHaveLength(1);
    expect(up.requests[0]?.headers.has("idempotency-key")).toBe(false);
  });

  it.each([400, 403, 404, 409])("%i is never retried", async (status) => {
    up.then(() => apiError(status, "x", "nope"));
    await expect(client().getAccount({}, ACC_ID)).rejects.toBeInstanceOf(TreasuryApiError);
    expect(up.requests).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });

  it("maps the error body: code, message, details and X-Request-ID", async () => {
    up.then(() =>
      json(
        400,
        { error: "validation_error", message: "from_date must be a date", details: { errors: { from_date: ["bad"] } } },
        { "x-request-id": "req-9" },
      ),
    );
    const err = await client()
      .listTransactions({}, { from_date: "x" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TreasuryApiError);
    expect(err).toMatchObject({
      status: 400,
      code: "validation_error",
      message: "from_date must be a date",
      details: { errors: { from_date: ["bad"] } },
      requestId: "req-9",
    });
  });

  it("every call has a timeout", async () => {
    up.then(hang);
    const err = await client({ timeoutMs: 30, retry: { maxAttempts: 1 } })
      .getAccount({}, ACC_ID)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TreasuryTransportError);
    expect(err).toMatchObject({ reason: "timeout" });
  });

  it("a caller's cancellation is not retried", async () => {
    up.then(hang);
    const ac = new AbortController();
    const p = client().getAccount({ signal: ac.signal }, ACC_ID);
    setTimeout(() => ac.abort(), 10);
    await expect(p).rejects.toMatchObject({ reason: "aborted" });
    expect(up.requests).toHaveLength(1);
  });
});

describe("requests and responses", () => {
  it("sends company, request id and only the known filters", async () => {
    up.then(() => json(200, envelope([])));
    const filters = { from_date: "2026-01-01", direction: "debit" as const, page: 2, pageSize: 25, secret_param: "x" };
    await client().listTransactions({ companyId: COMPANY, requestId: "rid-1" }, filters);
    const r = up.requests[0];
    expect(r?.headers.get("x-company-id")).toBe(COMPANY);
    expect(r?.headers.get("x-request-id")).toBe("rid-1");
    expect(Object.fromEntries(r?.url.searchParams ?? [])).toEqual({
      from_date: "2026-01-01",
      direction: "debit",
      page: "2",
      page_size: "25",
    });
  });

  it("tolerates unknown extra fields and drops them", async () => {
    up.then(() => json(200, { ...account, brand_new_field: 1 }));
    await expect(client().getAccount({}, ACC_ID)).resolves.toEqual(account);
  });

  it("a body that breaks the contract is a TreasuryResponseError naming the field", async () => {
    up.then(() => json(200, { ...account, currency: 12 }));
    const err = await client()
      .getAccount({}, ACC_ID)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TreasuryResponseError);
    expect((err as TreasuryResponseError).issues[0]).toMatch(/^currency:/);
  });

  it("accepts an empty 202 for submit and a 204 for delete", async () => {
    up.then(
      () => new Response(null, { status: 202 }),
      () => new Response(null, { status: 204 }),
    );
    const c = client();
    await expect(c.submitBatch({ idempotencyKey: "k" }, ACC_ID)).resolves.toBeNull();
    await expect(c.deleteWebhook({ idempotencyKey: "k2" }, ACC_ID)).resolves.toBeUndefined();
    expect(up.requests.map((r) => r.method)).toEqual(["POST", "DELETE"]);
  });

  it("the pagination iterator follows next and keeps the company context", async () => {
    const next = `${BASE}/accounts?page=2&page_size=1&currency=NOK`;
    const acc2 = { ...account, id: "44444444-4444-4444-8444-444444444444" };
    up.then(
      () => json(200, envelope([account], { count: 2, next })),
      () => json(200, envelope([acc2], { count: 2, page: 2 })),
    );
    const c = client();
    const all = await collectAll(c.listAccounts({ companyId: COMPANY }, { currency: "NOK", pageSize: 1 }));
    expect(all.map((a) => a.id)).toEqual([account.id, acc2.id]);
    expect(up.requests[1]?.url.toString()).toBe(next);
    expect(up.requests[1]?.headers.get("x-company-id")).toBe(COMPANY);
  });

  it("refuses a next link that points at another origin", async () => {
    up.then(() => json(200, envelope([account], { next: "http://evil.test/public/accounts?page=2" })));
    await expect(collectAll(client().listAccounts({}))).rejects.toBeInstanceOf(TreasuryResponseError);
    expect(up.requests).toHaveLength(1);
  });

  it("paths work with ids that need encoding and reach every endpoint family", async () => {
    const c = client();
    up.then(
      () => json(200, envelope([])),
      () => json(200, envelope([])),
      () => json(200, envelope([])),
      () => json(200, envelope([])),
      () => json(200, { koncern_id: COMPANY, companies: [], totals: [] }),
    );
    await c.listPendingApprovals({});
    await c.listMatches({}, { state: "proposed" });
    await c.cashflowDaily({ companyId: COMPANY }, { from_date: "2026-01-01", to_date: "2026-01-31" });
    await c.listWebhooks({});
    await c.getKoncernBreakdown({}, COMPANY);
    expect(up.requests.map((r) => r.url.pathname)).toEqual([
      "/public/approvals/pending",
      "/public/reconciliation/matches",
      "/public/reporting/cashflow/daily",
      "/public/webhooks",
      `/public/koncerner/${COMPANY}/breakdown`,
    ]);
  });
});

describe("statement upload (extension)", () => {
  it(
    "sends the FormData as multipart with the company and Idempotency-Key headers, and parses the " + "summaries",
    async () => {
      const summary = {
        file: "a.xml",
        message_type: "camt.053",
        version: "camt.053.001.08",
        statements: 1,
        account_refs: ["NO9386011117947"],
        accounts_matched: 1,
        accounts_created: 0,
        entries: 2,
        transactions_inserted: 2,
        pending: 0,
        pending_replaced: 0,
        duplicates: 0,
        entries_skipped: 0,
        balances: 2,
        intraday_points: 0,
        coverage_days: 1,
        skipped_codes: {},
      };
      up.then(() => json(200, { company_id: COMPANY, files: [summary] }));
      const bodies: unknown[] = [];
      const c = client({ fetch: (url, init) => (bodies.push(init?.body), up.fetch(url, init)) });
      const form = new FormData();
      form.append("files", new Blob(["<Document/>"], { type: "application/xml" }), "a.xml");
      const r = await c.uploadStatements({ companyId: COMPANY, idempotencyKey: "k-1" }, form);
      expect(r.files[0]?.transactions_inserted).toBe(2);
      const req = up.requests.at(-1);
      expect(req?.url.pathname).toBe("/public/statements");
      expect(req?.method).toBe("POST");
      // fetch writes multipart/form-data with its boundary itself; a JSON content type here would break the upload.
      expect(req?.headers.get("content-type")).toBeNull();
      expect(req?.headers.get("x-company-id")).toBe(COMPANY);
      expect(req?.headers.get("idempotency-key")).toBe("k-1");
      expect(bodies.at(-1)).toBe(form);
    },
  );
});
