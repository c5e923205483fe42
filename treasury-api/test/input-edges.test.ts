/**
 * Input at the edges of what the contract accepts, through the real app:
 * control characters in text fields, dates at both ends of 0001-01-01 …
 * 9999-12-31, batch totals beyond the amount pattern, empty bodies with a
 * JSON content type, and the OpenAPI description of headers and paging.
 * Every refused request is a 400 naming the field and changes nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { IDS } from "./harness";
import { harnessForFile } from "./file-harness";
import { stateChecksum } from "./state";

const h = harnessForFile();

interface ErrorJson {
  error: string;
  message: string;
  details: { errors?: Record<string, string[]> };
}

const NUL = "\u0000";
const UNKNOWN_ID = "00000000-0000-4000-8000-0000000000ff";

function instruction(i: number, over: Record<string, unknown> = {}) {
  return {
    amount: "100.00",
    currency: "NOK",
    creditor_name: `Supplier ${i} AS`,
    creditor_iban: "NO9386011117947",
    end_to_end_id: `EDGE-${i}`,
    ...over,
  };
}

function batch(instructions: unknown[], over: Record<string, unknown> = {}) {
  return { company_id: IDS.companyA, currency: "NOK", instructions, ...over };
}

async function createBatch(body: unknown): Promise<Response> {
  return h.write("POST", "/payments/batches", { json: body });
}

/** Expects a 400 validation_error whose details.errors name `field`, and no change to the data. */
async function expectRefused(send: () => Promise<Response>, field: string): Promise<ErrorJson> {
  const before = await stateChecksum(h.database);
  const res = await send();
  const body = (await res.json()) as ErrorJson;
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(body.error).toBe("validation_error");
  expect(Object.keys(body.details.errors ?? {})).toContain(field);
  expect(await stateChecksum(h.database)).toEqual(before);
  return body;
}

describe("control characters in text fields", () => {
  const account = (over: Record<string, unknown>) => ({
    company_id: IDS.companyA,
    bank_id: "DNBANOKK",
    external_ref: "NO8330001234567",
    external_ref_type: "IBAN",
    currency: "EUR",
    status: "active",
    ...over,
  });
  const cases: { name: string; send: () => Promise<Response>; field: string }[] = [
    {
      name: "creditor_name",
      send: () => createBatch(batch([instruction(0, { creditor_name: `ACME${NUL}AS` })])),
      field: "instructions[0].creditor_name",
    },
    {
      name: "end_to_end_id",
      send: () => createBatch(batch([instruction(0, { end_to_end_id: `E2E${NUL}` })])),
      field: "instructions[0].end_to_end_id",
    },
    {
      name: "creditor_name with a line feed",
      send: () => createBatch(batch([instruction(0, { creditor_name: "ACME\nAS" })])),
      field: "instructions[0].creditor_name",
    },
    {
      name: "account name",
      send: () =>
        h.write("POST", "/accounts", {
          json: account({ name: `Ops${NUL}` }),
        }),
      field: "name",
    },
    {
      name: "account bank_name",
      send: () =>
        h.write("POST", "/accounts", {
          json: account({ bank_name: `B${NUL}` }),
        }),
      field: "bank_name",
    },
    {
      name: "account external_ref",
      send: () =>
        h.write("POST", "/accounts", {
          json: account({ external_ref: `NO83${NUL}` }),
        }),
      field: "external_ref",
    },
    {
      name: "company name",
      send: () =>
        h.call("POST", "/companies", {
          client: "fullB",
          idem: true,
          json: { orgnr: "923609016", name: `Alpha${NUL}AS`, country: "NO" },
        }),
      field: "name",
    },
    {
      name: "webhook url",
      send: () =>
        h.call("POST", "/webhooks", {
          client: "fullB",
          idem: true,
          json: { url: `https://example.com/h${NUL}ook`, events: ["transaction.created"] },
        }),
      field: "url",
    },
    {
      name: "webhook url (PATCH)",
      send: () =>
        h.call("PATCH", `/webhooks/${UNKNOWN_ID}`, {
          client: "fullB",
          idem: true,
          json: { url: `https://example.com/${NUL}` },
        }),
      field: "url",
    },
    {
      name: "approver",
      send: () =>
        h.call("POST", `/approvals/${UNKNOWN_ID}/approve`, {
          client: "fullB",
          idem: true,
          json: { approver: `eve${NUL}` },
        }),
      field: "approver",
    },
    {
      name: "approval reason",
      send: () =>
        h.call("POST", `/approvals/${UNKNOWN_ID}/reject`, {
          client: "fullB",
          idem: true,
          json: { reason: `no${NUL}` },
        }),
      field: "reason",
    },
    {
      name: "match reviewer",
      send: () =>
        h.call("POST", `/reconciliation/matches/${UNKNOWN_ID}/confirm`, {
          client: "fullB",
          idem: true,
          json: { reviewer: `r${NUL}` },
        }),
      field: "reviewer",
    },
    {
      name: "match reason",
      send: () =>
        h.call("POST", `/reconciliation/matches/${UNKNOWN_ID}/reject`, {
          client: "fullB",
          idem: true,
          json: { reason: `x${NUL}y` },
        }),
      field: "reason",
    },
    {
      name: "match reason with an escape character",
      send: () =>
        h.call("POST", `/reconciliation/matches/${UNKNOWN_ID}/reject`, {
          client: "fullB",
          idem: true,
          json: { reason: "x\u001by" },
        }),
      field: "reason",
    },
  ];

  it.each(cases)("400 naming the field, nothing stored: $name", async ({ send, field }) => {
    const err = await expectRefused(send, field);
    expect(err.details.errors?.[field]?.join(" ")).toMatch(/control characters/);
  });

  it("free-text reasons keep tab and line breaks", async () => {
    // Validation passes, so the unknown match answers 404 rather than 400.
    const res = await h.call("POST", `/reconciliation/matches/${UNKNOWN_ID}/reject`, {
      client: "fullB",
      idem: true,
      json: { reason: "line one\n\tline two\r\n" },
    });
    expect(res.status).toBe(404);
  });

  it("token requests with NUL in a credential: 4xx, never 500", async () => {
    const form = await h.app.request("/public/auth/token/", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: `test-full-b${NUL}`,
        client_secret: "x",
      }).toString(),
    });
    expect(form.status).toBe(400);
    const basic = await h.app.request("/public/auth/token/", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`test-full-b${NUL}:x`).toString("base64")}`,
      },
      body: "grant_type=client_credentials",
    });
    expect(basic.status).toBe(401);
    const tenant = await h.app.request("/public/auth/tenant-token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tenant_id: IDS.tenant, client_id: `p${NUL}`, client_secret: "x" }),
    });
    expect(tenant.status).toBe(400);
  });
});

describe("dates from 0001-01-01 to 9999-12-31", () => {
  const a = IDS.accountA1;
  const dated = [
    `/accounts/${a}/transactions`,
    `/accounts/${a}/balances`,
    `/accounts/${a}/coverage`,
    `/accounts/${a}/intraday`,
    "/transactions",
    "/payments/batches",
    "/payments/status-events",
    "/reporting/cashflow/daily",
    "/reporting/cashflow",
    "/reporting/positions/daily",
    "/reporting/positions",
    "/reporting/forecast",
  ];
  const get = (path: string, query: string) =>
    h.call("GET", `${path}?${query}`, { client: "fullB", company: IDS.companyA });

  it.each(dated)("%s: year 0000 is 400 naming the parameter", async (path) => {
    for (const field of ["from_date", "to_date"]) {
      const res = await get(path, `${field}=0000-01-01`);
      const body = (await res.json()) as ErrorJson;
      expect(res.status, `${field}: ${JSON.stringify(body)}`).toBe(400);
      expect(Object.keys(body.details.errors ?? {})).toEqual([field]);
    }
  });

  it.each(dated.filter((p) => !p.endsWith("forecast")))(
    "%s: the first and the last day of the range answer 200",
    async (path) => {
      for (const query of [
        "to_date=9999-12-31",
        "from_date=9999-12-31&to_date=9999-12-31",
        "to_date=0001-01-01",
        "from_date=0001-01-01&to_date=0001-01-01",
        "from_date=0001-01-01",
      ]) {
        const res = await get(path, query);
        expect(res.status, `${query}: ${await res.clone().text()}`).toBe(200);
      }
    },
  );

  it("a past report whose default range would start before year 1 starts on 0001-01-01", async () => {
    const res = await h.call("GET", "/reporting/positions/daily?to_date=0001-01-10", { client: "partnerA" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  it("intraday: date=9999-12-31 answers, date=0000-01-01 is 400 on date", async () => {
    expect((await get(`/accounts/${a}/intraday`, "date=9999-12-31")).status).toBe(200);
    const res = await get(`/accounts/${a}/intraday`, "date=0000-01-01");
    expect(res.status).toBe(400);
    expect(Object.keys(((await res.json()) as ErrorJson).details.errors ?? {})).toEqual(["date"]);
  });

  it("forecast: ranges ending on 9999-12-31 answer, a default range is cut there", async () => {
    for (const query of [
      "from_date=9999-12-31",
      "from_date=9999-12-31&to_date=9999-12-31",
      "from_date=9999-12-20&days=366",
    ]) {
      const res = await get("/reporting/forecast", query);
      expect(res.status, `${query}: ${await res.clone().text()}`).toBe(200);
      const body = (await res.json()) as { results: { date: string }[] };
      expect(body.results.length).toBeGreaterThan(0);
      expect(body.results.at(-1)?.date).toBe("9999-12-31");
    }
  });

  it("a batch may be due on 9999-12-31; its list filter and the forecast answer", async () => {
    const res = await createBatch(batch([instruction(0)], { requested_execution_date: "9999-12-31" }));
    expect(res.status).toBe(201);
    expect((await get("/payments/batches", "from_date=0001-01-01&to_date=9999-12-31")).status).toBe(200);
  });
});

describe("batch totals", () => {
  const max = "999999999999999999.99";

  it("200 × the largest amount is refused on instructions, nothing stored", async () => {
    const err = await expectRefused(
      () => createBatch(batch(Array.from({ length: 200 }, (_, i) => instruction(i, { amount: max })))),
      "instructions",
    );
    expect(err.details.errors?.instructions?.[0]).toMatch(/18 integer digits/);
  });

  it("two amounts whose sum needs 19 integer digits are refused", async () => {
    await expectRefused(
      () => createBatch(batch([instruction(0, { amount: max }), instruction(1, { amount: "0.01" })])),
      "instructions",
    );
  });

  it("a total of exactly 18 integer digits is accepted and stored exactly", async () => {
    const res = await createBatch(
      batch([instruction(0, { amount: "999999999999999999.98" }), instruction(1, { amount: "0.01" })]),
    );
    expect(res.status).toBe(201);
    expect(((await res.json()) as { total_amount: string }).total_amount).toBe(max);
  });
});

describe("empty bodies with Content-Type: application/json", () => {
  const empty = (method: string, path: string, body = "", company?: string) =>
    h.call(method, path, {
      client: "fullB",
      idem: true,
      company,
      body,
      headers: { "content-type": "application/json" },
    });

  it("an optional body left empty is no body: approve, reject, confirm and reject a match", async () => {
    for (const path of [
      `/approvals/${UNKNOWN_ID}/approve`,
      `/approvals/${UNKNOWN_ID}/reject`,
      `/reconciliation/matches/${UNKNOWN_ID}/confirm`,
      `/reconciliation/matches/${UNKNOWN_ID}/reject`,
    ]) {
      for (const body of ["", "  \n"]) {
        const res = await empty("POST", path, body);
        // Past body validation: the unknown id is 404, not 400 "Malformed JSON".
        expect(res.status, `${path} ${JSON.stringify(body)}: ${await res.clone().text()}`).toBe(404);
      }
    }
  });

  it("approve with an empty JSON body decides like approve without a body", async () => {
    // Another person initiated it: an approval without a named approver counts as the client itself.
    const created = await createBatch(batch([instruction(0, { amount: "10.00" })], { initiator: "someone-else" }));
    const { id } = (await created.json()) as { id: string };
    expect((await empty("POST", `/payments/batches/${id}/submit`, "", IDS.companyA)).status).toBe(202);
    const pending = await h.call("GET", "/approvals/pending", { client: "fullB" });
    const request = ((await pending.json()) as { results: { id: string; object_id: string }[] }).results.find(
      (r) => r.object_id === id,
    );
    expect(request).toBeDefined();
    const res = await empty("POST", `/approvals/${request?.id}/approve`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { state: string }).state).toBe("approved");
  });

  it("a required body left empty says it is required", async () => {
    for (const [path, company] of [
      ["/companies", undefined],
      ["/accounts", IDS.companyA],
      ["/payments/batches", IDS.companyA],
      ["/webhooks", undefined],
    ] as const) {
      const before = await stateChecksum(h.database);
      const res = await empty("POST", path, "", company);
      const body = (await res.json()) as ErrorJson;
      expect(res.status, path).toBe(400);
      expect(body.message).toBe("The request body is required");
      expect(body.details.errors).toEqual({ body: ["is required"] });
      expect(await stateChecksum(h.database)).toEqual(before);
    }
    const patch = await empty("PATCH", `/webhooks/${UNKNOWN_ID}`);
    expect(patch.status).toBe(400);
  });

  it("a body that is not JSON is 415 on every write, also without Content-Length", async () => {
    for (const path of [
      `/approvals/${UNKNOWN_ID}/approve`,
      `/reconciliation/matches/${UNKNOWN_ID}/confirm`,
      "/companies",
    ]) {
      // app.request builds the Request in-process: no Content-Length header, the body is there all the same.
      const res = await h.call("POST", path, {
        client: "fullB",
        idem: true,
        body: '{"approver":"x"}',
        headers: { "content-type": "application/xml" },
      });
      expect(res.status, path).toBe(415);
      expect(((await res.json()) as ErrorJson).error).toBe("unsupported_media_type");
    }
  });

  it("a route without a body takes none or {}, and refuses anything else", async () => {
    const created = await createBatch(batch([instruction(0, { amount: "11.00" })]));
    const { id } = (await created.json()) as { id: string };
    const refused = await empty("POST", `/payments/batches/${id}/submit`, '{"approve":true}', IDS.companyA);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as ErrorJson).details.errors).toHaveProperty("body");
    expect((await empty("POST", `/payments/batches/${id}/submit`, "{}", IDS.companyA)).status).toBe(202);
  });
});

describe("GET /public/openapi.json", () => {
  interface Parameter {
    name: string;
    in: string;
    required?: boolean;
    schema?: { type?: string; minimum?: number; maximum?: number };
  }
  interface Operation {
    parameters?: Parameter[];
    security?: unknown[];
    responses: Record<string, { headers?: Record<string, unknown> }>;
  }
  let operations: { method: string; path: string; op: Operation }[] = [];

  beforeAll(async () => {
    const res = await h.call("GET", "/openapi.json");
    const doc = (await res.json()) as { paths: Record<string, Record<string, Operation>> };
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ method, path, op })),
    );
  });

  const param = (op: Operation, name: string, where = "header") =>
    op.parameters?.find((p) => p.name === name && p.in === where);

  it("declares Idempotency-Key on every write and X-Tenant-ID on every protected operation", () => {
    // The token endpoints declare HTTP Basic (the client's credentials), not a token: they are not protected operations.
    const protectedOps = operations.filter(
      (o) =>
        o.op.security && !o.op.security.every((req) => Object.keys(req as object).every((k) => k === "clientBasic")),
    );
    expect(protectedOps.length).toBeGreaterThan(30);
    for (const { method, path, op } of protectedOps) {
      expect(param(op, "X-Tenant-ID"), `${method} ${path}`).toBeDefined();
      const key = param(op, "Idempotency-Key");
      if (method === "get") expect(key, `${method} ${path}`).toBeUndefined();
      else expect(key?.required, `${method} ${path}`).toBe(true);
    }
  });

  it("declares X-Company-ID on company-scoped operations only", () => {
    const find = (method: string, path: string) => operations.find((o) => o.method === method && o.path === path)?.op;
    const scoped: [string, string][] = [
      ["get", "/accounts"],
      ["post", "/payments/batches"],
      ["get", "/approvals/pending"],
      ["post", "/reconciliation/matches/{id}/confirm"],
    ];
    for (const [method, path] of scoped) {
      expect(param(find(method, path) as Operation, "X-Company-ID"), `${method} ${path}`).toBeDefined();
    }
    expect(param(find("get", "/webhooks") as Operation, "X-Company-ID")).toBeUndefined();
  });

  it("types page, page_size, limit and days as integers", () => {
    let seen = 0;
    for (const { op } of operations) {
      for (const name of ["page", "page_size", "limit", "days"]) {
        const p = param(op, name, "query");
        if (!p) continue;
        seen++;
        expect(p.schema?.type, name).toBe("integer");
        expect(p.schema?.minimum, name).toBe(1);
      }
    }
    expect(seen).toBeGreaterThan(60);
  });

  it("documents Retry-After on every 429", () => {
    const throttled = operations.filter((o) => o.op.responses["429"]);
    expect(throttled.length).toBeGreaterThan(30);
    for (const { method, path, op } of throttled)
      expect(op.responses["429"]?.headers, `${method} ${path}`).toHaveProperty("Retry-After");
  });

  it("paging errors name the parameter once", async () => {
    const res = await h.call("GET", "/payments/batches?page=0", { client: "fullB", company: IDS.companyA });
    const body = (await res.json()) as ErrorJson;
    expect(body.message).toBe("Invalid query: page must be at least 1");
    expect(body.details.errors).toEqual({ page: ["must be at least 1"] });
  });
});
