import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import { businessToday } from "@treasury/contract/business-date";
import { CLIENTS, IDS, daysAgo, type ClientKey, TEST_IBANS } from "../../test/harness";
import { harnessForFile } from "../../test/file-harness";

const h = harnessForFile();

const IBANS = TEST_IBANS;

interface InstructionBody {
  amount: unknown;
  currency: unknown;
  creditor_name: unknown;
  creditor_iban: unknown;
  end_to_end_id: unknown;
  [k: string]: unknown;
}

function instruction(i: number, currency = "NOK", over: Partial<InstructionBody> = {}): InstructionBody {
  return {
    amount: `${100 + i}.25`,
    currency,
    creditor_name: `Supplier ${i} AS`,
    creditor_iban: IBANS[i % IBANS.length],
    end_to_end_id: `E2E-T-${i}`,
    ...over,
  };
}

function batchBody(n: number, over: Record<string, unknown> = {}, company: string = IDS.companyA, currency = "NOK") {
  return {
    company_id: company,
    currency,
    instructions: Array.from({ length: n }, (_, i) => instruction(i, currency)),
    ...over,
  };
}

async function batchCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(h.database.db, sql`select count(*)::int as n from payment_batches`);
  return Number(row?.n ?? 0);
}

/** `company: null` sends no X-Company-ID. */
async function create(
  body: unknown,
  client: ClientKey = "fullB",
  company: string | null = IDS.companyA,
): Promise<Response> {
  return h.write("POST", "/payments/batches", { client, company: company ?? undefined, json: body });
}

async function createOk(
  body: unknown,
  client: ClientKey = "fullB",
  company: string | null = IDS.companyA,
): Promise<{ id: string; total_amount: string; status: string }> {
  const res = await create(body, client, company);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; total_amount: string; status: string };
}

describe("POST /payments/batches", () => {
  it("creates a batch in both forms with the exact total", async () => {
    const body = batchBody(3, {
      requested_execution_date: businessToday("NO"),
      instructions: [
        instruction(0, "NOK", { amount: "0.10" }),
        instruction(1, "NOK", { amount: "0.20" }),
        instruction(2, "NOK", { amount: "1000000000.7" }),
      ],
    });
    const res = await create(body);
    expect(res.status).toBe(201);
    const b = (await res.json()) as Record<string, unknown>;
    expect(b).toMatchObject({
      company_id: IDS.companyA,
      currency: "NOK",
      status: "created",
      total_amount: "1000000001.00",
      instruction_count: 3,
      requested_execution_date: businessToday("NO"),
    });
    expect(typeof b.id).toBe("string");
    expect(String(b.created_at)).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);

    // Form A: X-Company-ID optional; company_id must be a company of the tenant.
    const a = await createOk(batchBody(1, {}, IDS.companyB, "SEK"), "partnerA", null);
    expect(a.status).toBe("created");
    const foreign = await create(batchBody(1, {}, IDS.companyD), "partnerA", null);
    expect(foreign.status).toBe(400);
    expect(((await foreign.json()) as { details: { errors: Record<string, string[]> } }).details.errors).toHaveProperty(
      "company_id",
    );
  });

  it("sums huge amounts exactly (beyond decimal.js's default 20 significant digits)", async () => {
    const half = "499999999999999999.99";
    const b = await createOk(
      batchBody(3, {
        instructions: [
          instruction(0, "NOK", { amount: half }),
          instruction(1, "NOK", { amount: half }),
          instruction(2, "NOK", { amount: "0.01" }),
        ],
      }),
    );
    expect(b.total_amount).toBe("999999999999999999.99");
  });

  it("stores IBANs in electronic format and keeps the given amounts", async () => {
    const b = await createOk(
      batchBody(1, { instructions: [instruction(0, "NOK", { creditor_iban: "no93 8601 1117 947", amount: "5" })] }),
    );
    const res = await h.call("GET", `/payments/batches/${b.id}/instructions`, {
      client: "fullB",
      company: IDS.companyA,
    });
    const list = (await res.json()) as { results: { creditor_iban: string; amount: string; status: string }[] };
    expect(list.results[0]).toMatchObject({ creditor_iban: "NO9386011117947", amount: "5.00", status: "pending" });
  });

  const long = (n: number) => "x".repeat(n);
  /** A batch of one instruction with one bad field: the error names `instructions[0].<that field>`. */
  const firstInstructionCases: [name: string, bad: Record<string, unknown>][] = [
    ["amount zero", { amount: "0.00" }],
    ["amount negative", { amount: "-5.00" }],
    ["amount a number", { amount: 5 }],
    ["amount in exponent form", { amount: "1e3" }],
    ["creditor_name empty", { creditor_name: "  " }],
    ["creditor_name over 140", { creditor_name: long(141) }],
    ["creditor_iban garbage", { creditor_iban: "hello" }],
    ["end_to_end_id empty", { end_to_end_id: "" }],
    ["end_to_end_id over 35", { end_to_end_id: long(36) }],
    ["unknown instruction field", { memo: "x" }],
  ];
  const cases: { name: string; body: () => unknown; field: string }[] = [
    {
      name: "company_id other than the header",
      body: () => batchBody(1, { company_id: IDS.companyB }),
      field: "company_id",
    },
    {
      name: "company_id missing",
      body: () => ({ currency: "NOK", instructions: [instruction(0)] }),
      field: "company_id",
    },
    { name: "company_id not a uuid", body: () => batchBody(1, { company_id: "nope" }), field: "company_id" },
    { name: "currency not ISO 4217", body: () => batchBody(1, { currency: "XYZ" }), field: "currency" },
    { name: "currency lower case", body: () => batchBody(1, { currency: "nok" }), field: "currency" },
    { name: "no instructions", body: () => batchBody(0), field: "instructions" },
    { name: "instructions not an array", body: () => batchBody(0, { instructions: {} }), field: "instructions" },
    {
      name: "amount with too many fraction digits",
      body: () => batchBody(2, { instructions: [instruction(0), instruction(1, "NOK", { amount: "1.001" })] }),
      field: "instructions[1].amount",
    },
    {
      name: "JPY amount with fraction digits",
      body: () => ({
        ...batchBody(1, {}, IDS.companyA, "JPY"),
        instructions: [instruction(0, "JPY", { amount: "100.5" })],
      }),
      field: "instructions[0].amount",
    },
    {
      name: "instruction currency differs",
      body: () => batchBody(2, { instructions: [instruction(0), instruction(1, "SEK")] }),
      field: "instructions[1].currency",
    },
    {
      name: "creditor_iban bad checksum",
      body: () =>
        batchBody(4, {
          instructions: [0, 1, 2]
            .map((i) => instruction(i))
            .concat(instruction(3, "NOK", { creditor_iban: "NO9386011117948" })),
        }),
      field: "instructions[3].creditor_iban",
    },
    {
      name: "end_to_end_id duplicated",
      body: () =>
        batchBody(3, {
          instructions: [instruction(0), instruction(1), instruction(2, "NOK", { end_to_end_id: "E2E-T-0" })],
        }),
      field: "instructions[2].end_to_end_id",
    },
    {
      name: "required field of an instruction missing",
      body: () =>
        batchBody(1, { instructions: [{ amount: "1.00", currency: "NOK", creditor_name: "A", end_to_end_id: "x" }] }),
      field: "instructions[0].creditor_iban",
    },
    {
      name: "requested_execution_date in the past",
      body: () => batchBody(1, { requested_execution_date: daysAgo(1) }),
      field: "requested_execution_date",
    },
    {
      name: "requested_execution_date not a date",
      body: () => batchBody(1, { requested_execution_date: "2030-02-30" }),
      field: "requested_execution_date",
    },
    { name: "unknown batch field", body: () => batchBody(1, { priority: "high" }), field: "priority" },
    { name: "more than 10,000 instructions", body: () => batchBody(10_001), field: "instructions" },
    ...firstInstructionCases.map(([name, bad]) => ({
      name,
      body: () => batchBody(1, { instructions: [instruction(0, "NOK", bad)] }),
      field: `instructions[0].${Object.keys(bad)[0]}`,
    })),
  ];

  it.each(cases)("400 naming the field: $name", async ({ body, field }) => {
    const before = await batchCount();
    const res = await create(body());
    expect(res.status).toBe(400);
    const err = (await res.json()) as { error: string; details: { errors: Record<string, string[]> } };
    expect(err.error).toBe("validation_error");
    expect(Object.keys(err.details.errors)).toContain(field);
    expect(await batchCount()).toBe(before);
  });

  it("names every bad field of one request at once", async () => {
    const res = await create(
      batchBody(3, {
        requested_execution_date: daysAgo(3),
        instructions: [
          instruction(0, "NOK", { creditor_iban: "NO00" }),
          instruction(1, "EUR", { amount: "1.999" }),
          instruction(2, "NOK", { end_to_end_id: "E2E-T-0" }),
        ],
      }),
    );
    expect(res.status).toBe(400);
    const err = (await res.json()) as { details: { errors: Record<string, string[]> } };
    expect(Object.keys(err.details.errors).sort()).toEqual(
      [
        "instructions[0].creditor_iban",
        "instructions[1].amount",
        "instructions[1].currency",
        "instructions[2].end_to_end_id",
        "requested_execution_date",
      ].sort(),
    );
  });

  it("accepts 10,000 instructions (over 1 MiB of JSON) and refuses bodies over 8 MiB", async () => {
    const body = batchBody(10_000);
    expect(JSON.stringify(body).length).toBeGreaterThan(1024 * 1024);
    const b = await createOk(body); // its speed is measured by bench:api, not here
    const detail = (await (
      await h.call("GET", `/payments/batches/${b.id}`, { client: "fullB", company: IDS.companyA })
    ).json()) as { instruction_count: number; total_amount: string };
    // sum of (100 + i).25 for i < 10000 = 100 * 10000 + 49995000 + 0.25 * 10000
    expect(detail).toMatchObject({ instruction_count: 10_000, total_amount: "50997500.00" });

    const huge = await h.write("POST", "/payments/batches", {
      headers: { "content-type": "application/json" },
      body: `{"pad":"${"x".repeat(8 * 1024 * 1024)}"}`,
    });
    expect(huge.status).toBe(413);
    // Other write routes keep the 1 MiB limit.
    const other = await h.write("POST", "/accounts", {
      headers: { "content-type": "application/json" },
      body: `{"pad":"${"x".repeat(1024 * 1024)}"}`,
    });
    expect(other.status).toBe(413);
  });

  it(
    "refuses wrong content type, malformed JSON, a missing key, a missing company header and missing " + "scopes",
    async () => {
      const text = await h.write("POST", "/payments/batches", {
        headers: { "content-type": "text/plain" },
        body: JSON.stringify(batchBody(1)),
      });
      expect(text.status).toBe(415);
      const malformed = await h.write("POST", "/payments/batches", {
        headers: { "content-type": "application/json" },
        body: "{not json",
      });
      expect(malformed.status).toBe(400);
      const noKey = await h.call("POST", "/payments/batches", {
        client: "fullB",
        company: IDS.companyA,
        json: batchBody(1),
      });
      expect(noKey.status).toBe(400);
      const noCompany = await create(batchBody(1), "fullB", null);
      expect(noCompany.status).toBe(400);
      const notLinked = await create(batchBody(1, { company_id: IDS.companyC }), "fullB", IDS.companyC);
      expect(notLinked.status).toBe(403);
      const readOnly = await h.write("POST", "/payments/batches", { client: "readB", json: batchBody(1) });
      expect(readOnly.status).toBe(403);
      const noWriteScope = await h.write("POST", "/payments/batches", { scope: "read:payments", json: batchBody(1) });
      expect(noWriteScope.status).toBe(403);
    },
  );

  it("replays the same key and refuses it with another body", async () => {
    const key = crypto.randomUUID();
    const first = await h.write("POST", "/payments/batches", { json: batchBody(2), idem: key });
    const again = await h.write("POST", "/payments/batches", { json: batchBody(2), idem: key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(((await again.json()) as { id: string }).id).toBe(((await first.json()) as { id: string }).id);
    const other = await h.write("POST", "/payments/batches", { json: batchBody(3), idem: key });
    expect(other.status).toBe(409);
  });
});

describe("GET /payments/batches and details", () => {
  let batchA: string;
  let batchB: string;
  beforeAll(async () => {
    batchA = (await createOk(batchBody(3))).id;
    batchB = (await createOk(batchBody(2, {}, IDS.companyB, "SEK"), "fullB", IDS.companyB)).id;
  });

  it("lists in both forms, newest first, narrowed to the company", async () => {
    // The two newest batches of company A are made here, whatever other tests created before.
    const older = (await createOk(batchBody(1))).id;
    await new Promise((resolve) => setTimeout(resolve, 5)); // distinct created_at (millisecond timestamps)
    const newest = (await createOk(batchBody(1))).id;
    const b = await h.call("GET", "/payments/batches?page_size=2", { client: "fullB", company: IDS.companyA });
    expect(b.status).toBe(200);
    const env = (await b.json()) as {
      count: number;
      results: { id: string; company_id: string; created_at: string }[];
      next: string | null;
    };
    expect(env.results).toHaveLength(2);
    expect(env.count).toBeGreaterThan(2); // batchA as well
    expect(env.next).toContain("page=2");
    expect(env.results.every((r) => r.company_id === IDS.companyA)).toBe(true);
    expect(env.results.map((r) => r.id)).toEqual([newest, older]);

    const a = await h.call("GET", "/payments/batches?limit=1000", { client: "partnerA" });
    const arr = (await a.json()) as { id: string }[];
    expect(Array.isArray(arr)).toBe(true);
    expect(arr.map((r) => r.id)).toEqual(expect.arrayContaining([batchA, batchB]));
    const aNarrow = (await (
      await h.call("GET", "/payments/batches?limit=1000", { client: "partnerA", company: IDS.companyB })
    ).json()) as { id: string }[];
    expect(aNarrow.map((r) => r.id)).toContain(batchB);
    expect(aNarrow.map((r) => r.id)).not.toContain(batchA);
  });

  it("filters by status and created date", async () => {
    const created = (await (
      await h.call("GET", "/payments/batches?status=created&page_size=1000", { client: "fullB", company: IDS.companyA })
    ).json()) as { results: { status: string }[] };
    expect(created.results.length).toBeGreaterThan(0);
    expect(created.results.every((r) => r.status === "created")).toBe(true);
    const none = (await (
      await h.call("GET", "/payments/batches?status=completed", { client: "fullB", company: IDS.companyA })
    ).json()) as { count: number };
    expect(none.count).toBe(0);
    const today = (await (
      await h.call("GET", `/payments/batches?from_date=${daysAgo(0)}&to_date=${daysAgo(0)}`, {
        client: "fullB",
        company: IDS.companyA,
      })
    ).json()) as { count: number };
    expect(today.count).toBeGreaterThan(0);
    const past = (await (
      await h.call("GET", `/payments/batches?to_date=${daysAgo(1)}`, { client: "fullB", company: IDS.companyA })
    ).json()) as { count: number };
    expect(past.count).toBe(0);
  });

  const bad: [string, string][] = [
    ["unknown filter", "/payments/batches?colour=red"],
    ["bad status", "/payments/batches?status=done"],
    ["bad date", "/payments/batches?from_date=2026-13-01"],
    ["reversed range", `/payments/batches?from_date=${daysAgo(0)}&to_date=${daysAgo(5)}`],
    ["page_size over max", "/payments/batches?page_size=1001"],
    ["batch id not a uuid", "/payments/batches/123"],
    ["instructions of a non-uuid", "/payments/batches/abc/instructions"],
    ["bad instruction status", `/payments/batches/${IDS.companyA}/instructions?status=paid`],
    ["instruction id not a uuid", "/payments/instructions/xyz"],
    ["status-events unknown filter", "/payments/status-events?account_id=x"],
    ["status-events bad status", "/payments/status-events?status=approved"],
    ["status-events bad batch_id", "/payments/status-events?batch_id=1"],
    ["status-events reversed range", `/payments/status-events?from_date=${daysAgo(0)}&to_date=${daysAgo(1)}`],
  ];
  it.each(bad)("400 for %s", async (_name, path) => {
    const res = await h.call("GET", path, { client: "fullB", company: IDS.companyA });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("validation_error");
  });

  it("Form A refuses page / page_size", async () => {
    expect((await h.call("GET", "/payments/batches?page=1", { client: "partnerA" })).status).toBe(400);
  });

  it("detail, instructions and instruction detail; 404 outside the scope", async () => {
    const detail = await h.call("GET", `/payments/batches/${batchA}/`, { client: "fullB", company: IDS.companyA });
    expect(detail.status).toBe(200);
    expect(await detail.json()).toMatchObject({
      id: batchA,
      status: "created",
      instruction_count: 3,
      total_amount: "303.75",
    });

    const ins = (await (
      await h.call("GET", `/payments/batches/${batchA}/instructions`, { client: "fullB", company: IDS.companyA })
    ).json()) as {
      count: number;
      results: { id: string; end_to_end_id: string; batch_id: string; status: string }[];
    };
    expect(ins.count).toBe(3);
    expect(ins.results.map((r) => r.end_to_end_id)).toEqual(["E2E-T-0", "E2E-T-1", "E2E-T-2"]);
    const first = ins.results[0];
    expect(first).toMatchObject({ batch_id: batchA, status: "pending" });
    const pendingOnly = (await (
      await h.call("GET", `/payments/batches/${batchA}/instructions?status=settled`, {
        client: "fullB",
        company: IDS.companyA,
      })
    ).json()) as { count: number };
    expect(pendingOnly.count).toBe(0);

    const one = await h.call("GET", `/payments/instructions/${first?.id}`, { client: "fullB", company: IDS.companyA });
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({
      id: first?.id,
      amount: "100.25",
      currency: "NOK",
      creditor_name: "Supplier 0 AS",
    });

    // Another company's header, another tenant, an unknown id: 404 (never 403).
    expect(
      (await h.call("GET", `/payments/batches/${batchA}`, { client: "fullB", company: IDS.companyB })).status,
    ).toBe(404);
    expect(
      (await h.call("GET", `/payments/batches/${batchA}`, { client: "otherB", company: IDS.companyD })).status,
    ).toBe(404);
    expect(
      (await h.call("GET", `/payments/batches/${batchA}/instructions`, { client: "otherB", company: IDS.companyD }))
        .status,
    ).toBe(404);
    expect(
      (await h.call("GET", `/payments/instructions/${first?.id}`, { client: "otherB", company: IDS.companyD })).status,
    ).toBe(404);
    expect(
      (await h.call("GET", `/payments/batches/${crypto.randomUUID()}`, { client: "fullB", company: IDS.companyA }))
        .status,
    ).toBe(404);
    // Read scope needed.
    expect(
      (
        await h.call("GET", `/payments/batches/${batchA}`, {
          client: "fullB",
          scope: "read:ledger",
          company: IDS.companyA,
        })
      ).status,
    ).toBe(403);
    // Missing company header on a company-scoped call (Form B).
    expect((await h.call("GET", "/payments/batches", { client: "fullB" })).status).toBe(400);
  });
});

describe("POST /payments/batches/{id}/submit", () => {
  it("202 with the batch, opens an approval request; 409 when submitted again; replays the same key", async () => {
    const small = await createOk(batchBody(2));
    const key = crypto.randomUUID();
    const res = await h.write("POST", `/payments/batches/${small.id}/submit`, { idem: key });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ id: small.id, status: "pending_approval" });
    const replay = await h.write("POST", `/payments/batches/${small.id}/submit`, { idem: key });
    expect(replay.status).toBe(202);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const again = await h.write("POST", `/payments/batches/${small.id}/submit`);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      error: "conflict",
      details: { state: "pending_approval", allowed: ["created"] },
    });

    const requests = await queryRows<{ required_count: number; state: string }>(
      h.database.db,
      sql`select required_count, state from approval_requests where object_id = ${small.id}`,
    );
    expect(requests).toEqual([{ required_count: 1, state: "pending" }]);
  });

  it("needs two approvals at or above the four-eyes threshold of the batch currency (NOK 1,000,000)", async () => {
    const big = await createOk(
      batchBody(2, {
        instructions: [instruction(0, "NOK", { amount: "999999.99" }), instruction(1, "NOK", { amount: "0.01" })],
      }),
    );
    expect(big.total_amount).toBe("1000000.00");
    expect(
      (
        await h.write("POST", `/payments/batches/${big.id}/submit`, {
          json: {},
        })
      ).status,
    ).toBe(202);
    const [req] = await queryRows<{ required_count: number }>(
      h.database.db,
      sql`select required_count from approval_requests where object_id = ${big.id}`,
    );
    expect(req?.required_count).toBe(2);
  });

  it("404 outside the scope, 400 for a bad id, 415 for a non-JSON body, 403 without write scope", async () => {
    const b = await createOk(batchBody(1));
    expect((await h.write("POST", `/payments/batches/${b.id}/submit`, { company: IDS.companyB })).status).toBe(404);
    expect(
      (await h.write("POST", `/payments/batches/${b.id}/submit`, { client: "otherB", company: IDS.companyD })).status,
    ).toBe(404);
    expect((await h.write("POST", "/payments/batches/nope/submit")).status).toBe(400);
    expect(
      (
        await h.write("POST", `/payments/batches/${b.id}/submit`, {
          headers: { "content-type": "text/plain", "content-length": "2" },
          body: "go",
        })
      ).status,
    ).toBe(415);
    expect((await h.write("POST", `/payments/batches/${b.id}/submit`, { scope: "read:payments" })).status).toBe(403);
    expect(
      (await h
        .call("GET", `/payments/batches/${b.id}`, { client: "fullB", company: IDS.companyA })
        .then((r) => r.json())) as { status: string },
    ).toMatchObject({ status: "created" });
  });

  it("Form A submits without a company header", async () => {
    const b = await createOk(batchBody(1), "partnerA", null);
    const res = await h.call("POST", `/payments/batches/${b.id}/submit`, { client: "partnerA", idem: true });
    expect(res.status).toBe(202);
  });
});

describe("GET /payments/status-events", () => {
  it("answers an empty list in both forms before any status change", async () => {
    const b = await h.call("GET", "/payments/status-events", { client: "fullB", company: IDS.companyA });
    expect(b.status).toBe(200);
    expect(await b.json()).toMatchObject({ count: 0, results: [] });
    const a = await h.call("GET", "/payments/status-events?status=settled&limit=5", { client: "partnerA" });
    expect(await a.json()).toEqual([]);
  });

  it("is isolated per client", async () => {
    expect(CLIENTS.otherB.form).toBe("B");
    const res = await h.call("GET", "/payments/status-events", { client: "otherB", company: IDS.companyA });
    expect(res.status).toBe(403);
  });
});

describe("GET /payments/batches/{id}/debtor-account", () => {
  it("names the first active account in the batch currency, with the full IBAN; 404 without one", async () => {
    const nok = await createOk(batchBody(1));
    const res = await h.call("GET", `/payments/batches/${nok.id}/debtor-account`, {
      client: "fullB",
      company: IDS.companyA,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({
      account_id: IDS.accountA1,
      name: "Alpha NOK operating",
      iban: "NO9386011117947",
      bic: "DNBANOKK",
      bank_name: "DNB Bank",
      currency: "NOK",
      company_name: "Alpha AS",
    });

    const usd = await createOk(batchBody(1, {}, IDS.companyA, "USD"));
    const none = await h.call("GET", `/payments/batches/${usd.id}/debtor-account`, {
      client: "fullB",
      company: IDS.companyA,
    });
    expect(none.status).toBe(404);

    // Another company's batch is not found, not leaked.
    const other = await h.call("GET", `/payments/batches/${nok.id}/debtor-account`, {
      client: "fullB",
      company: IDS.companyC,
    });
    expect([403, 404]).toContain(other.status);
  });
});
