/**
 * The payment-run extensions of the local API: batch reference, chosen debtor
 * account (checked: company, currency, active), per-instruction BIC and
 * remittance information (free text or ISO 11649 creditor reference), editing
 * and discarding a created batch (409 afterwards), their advertisement in the
 * OpenAPI document, the bank debiting the chosen account with the remittance
 * text, and the matcher using that text. The execution date's lower bound is
 * today in the company's time zone, on fixed clocks around midnight.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import * as s from "../../db/schema";
import { IDS, createHarness, daysAgo, type Harness, noonTransaction } from "../../test/harness";
import { runBankOnce } from "../../domain/bank-simulator";
import { proposeMatchesForTransactions } from "../../domain/matching";

let h: Harness;
const PAYROLL = "40000000-0000-4000-8000-0000000000a3"; // NOK, company A, sorts after "Alpha NOK operating"
const CLOSED = "40000000-0000-4000-8000-0000000000a4"; // NOK, company A, closed
const RF = "RF18539007547034";
/** The API's clock for the date rules (`config.now`): a fixed instant, or null for the real time. */
let clock: Date | null = null;

beforeAll(async () => {
  h = await createHarness({ bankSpeed: "manual", now: () => clock ?? new Date() });
  await h.database.db.insert(s.accounts).values([
    {
      id: PAYROLL,
      tenantId: IDS.tenant,
      companyId: IDS.companyA,
      bankId: "DNBANOKK",
      externalRef: "NO5015032080119",
      name: "Zeta NOK payroll",
      currency: "NOK",
      bankName: "DNB Bank",
    },
    {
      id: CLOSED,
      tenantId: IDS.tenant,
      companyId: IDS.companyA,
      bankId: "DNBANOKK",
      externalRef: "NO1815030040045",
      name: "Old NOK",
      currency: "NOK",
      bankName: "DNB Bank",
      status: "closed",
    },
  ]);
});
afterAll(async () => {
  await h.close();
});

let seq = 0;
function ins(over: Record<string, unknown> = {}) {
  seq++;
  return {
    amount: "1250.00",
    currency: "NOK",
    creditor_name: "Fjordkraft AS",
    creditor_iban: "NO93 8601 1117 947",
    end_to_end_id: `RUN-${seq}`,
    ...over,
  };
}

async function create(body: Record<string, unknown>) {
  return h.write("POST", "/payments/batches", {
    json: { company_id: IDS.companyA, currency: "NOK", instructions: [ins()], ...body },
  });
}

async function createdId(body: Record<string, unknown>): Promise<string> {
  const res = await create(body);
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function errorsOf(res: Response): Promise<Record<string, string[]>> {
  const body = (await res.json()) as { details?: { errors?: Record<string, string[]> } };
  return body.details?.errors ?? {};
}

describe("create with the extensions", () => {
  it("stores and returns reference, debtor account, BIC and remittance information", async () => {
    const res = await create({
      reference: "Suppliers week 48",
      debtor_account_id: PAYROLL,
      instructions: [
        ins({
          creditor_bic: "dnba nokk",
          remittance_information: { type: "creditor_reference", reference: "rf18 5390 0754 7034" },
        }),
        ins({ remittance_information: { type: "unstructured", text: "Invoice 4711" } }),
      ],
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const batch = (await res.json()) as { id: string; reference: string; debtor_account_id: string };
    expect(batch).toMatchObject({ reference: "Suppliers week 48", debtor_account_id: PAYROLL });
    const list = await h.call("GET", `/payments/batches/${batch.id}/instructions`, {
      client: "fullB",
      company: IDS.companyA,
    });
    const rows = ((await list.json()) as { results: Record<string, unknown>[] }).results;
    expect(rows.map((r) => [r.creditor_bic, r.remittance_information])).toEqual([
      ["DNBANOKK", { type: "creditor_reference", reference: RF }],
      [null, { type: "unstructured", text: "Invoice 4711" }],
    ]);
    const debtor = await h.call("GET", `/payments/batches/${batch.id}/debtor-account`, {
      client: "fullB",
      company: IDS.companyA,
    });
    expect(((await debtor.json()) as { account_id: string }).account_id).toBe(PAYROLL);
  });

  it.each([
    [
      {
        instructions: [ins({ remittance_information: { type: "creditor_reference", reference: "RF19539007547034" } })],
      },
      "instructions[0].remittance_information.reference",
      /check digits/,
    ],
    [
      { instructions: [ins({ remittance_information: { type: "creditor_reference", reference: "12345" } })] },
      "instructions[0].remittance_information.reference",
      /start with RF/,
    ],
    [
      { instructions: [ins({ remittance_information: { type: "unstructured", text: "x".repeat(141) } })] },
      "instructions[0].remittance_information.text",
      /140/,
    ],
    [{ instructions: [ins({ creditor_bic: "DNBANO" })] }, "instructions[0].creditor_bic", /BIC/],
    [{ instructions: [ins({ creditor_iban: "NO9386011117948" })] }, "instructions[0].creditor_iban", /IBAN/],
    [{ requested_execution_date: daysAgo(1) }, "requested_execution_date", /past/],
    [{ debtor_account_id: IDS.accountA2 }, "debtor_account_id", /EUR account/],
    [{ debtor_account_id: CLOSED }, "debtor_account_id", /not active/],
    [{ debtor_account_id: IDS.accountB1 }, "debtor_account_id", /not an account of the batch's company/],
    [{ debtor_account_id: IDS.accountD1 }, "debtor_account_id", /not an account of the batch's company/],
    [{ reference: "" }, "reference", /required/],
  ])("400 naming the field: %#", async (body, field, message) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    const errors = await errorsOf(res);
    expect(Object.keys(errors)).toContain(field);
    expect(errors[field]?.join(" ")).toMatch(message);
  });
});

describe("PATCH and DELETE /payments/batches/{id}", () => {
  it("renames, repoints and replaces the instructions of a created batch; total and count follow", async () => {
    const id = await createdId({ reference: "Draft" });
    const res = await h.write("PATCH", `/payments/batches/${id}`, {
      json: {
        reference: "Rent December",
        debtor_account_id: PAYROLL,
        instructions: [ins({ amount: "10.50" }), ins({ amount: "0.25", creditor_bic: "DNBANOKKXXX" })],
      },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({
      id,
      reference: "Rent December",
      debtor_account_id: PAYROLL,
      total_amount: "10.75",
      instruction_count: 2,
      status: "created",
    });
    const cleared = await h.write("PATCH", `/payments/batches/${id}`, {
      json: { debtor_account_id: null, reference: null },
    });
    expect(await cleared.json()).toMatchObject({ reference: null, debtor_account_id: null, total_amount: "10.75" });
  });

  it("refuses bad edits with field-named 400s and an empty edit", async () => {
    const id = await createdId({});
    const patch = (json: unknown) => h.write("PATCH", `/payments/batches/${id}`, { json });
    expect(
      Object.keys(await errorsOf(await patch({ instructions: [ins({ currency: "EUR", amount: "1.00" })] }))),
    ).toEqual(["instructions[0].currency"]);
    expect(Object.keys(await errorsOf(await patch({ debtor_account_id: IDS.accountA2 })))).toEqual([
      "debtor_account_id",
    ]);
    expect(Object.keys(await errorsOf(await patch({ requested_execution_date: daysAgo(3) })))).toEqual([
      "requested_execution_date",
    ]);
    expect((await patch({})).status).toBe(400);
    expect((await patch({ status: "approved" })).status).toBe(400);
  });

  it("discards a created batch (then 404); a submitted batch is 409 for edit and discard", async () => {
    const gone = await createdId({});
    const del = await h.write("DELETE", `/payments/batches/${gone}`);
    expect(del.status).toBe(204);
    expect((await h.call("GET", `/payments/batches/${gone}`, { client: "fullB", company: IDS.companyA })).status).toBe(
      404,
    );

    const id = await createdId({});
    expect((await h.write("POST", `/payments/batches/${id}/submit`)).status).toBe(202);
    const edit = await h.write("PATCH", `/payments/batches/${id}`, {
      json: { reference: "late" },
    });
    expect(edit.status).toBe(409);
    expect(await edit.json()).toMatchObject({
      details: { state: "pending_approval", allowed: ["created"] },
    });
    const discard = await h.write("DELETE", `/payments/batches/${id}`);
    expect(discard.status).toBe(409);
  });

  it("needs write scope, the company and an idempotency key; another company's batch is 404", async () => {
    const id = await createdId({});
    expect(
      (await h.write("PATCH", `/payments/batches/${id}`, { client: "readB", json: { reference: "x" } })).status,
    ).toBe(403);
    expect(
      (
        await h.call("PATCH", `/payments/batches/${id}`, {
          client: "fullB",
          company: IDS.companyA,
          json: { reference: "x" },
        })
      ).status,
    ).toBe(400);
    expect((await h.write("DELETE", `/payments/batches/${id}`, { company: IDS.companyB })).status).toBe(404);
  });
});

describe("advertisement", () => {
  it("the OpenAPI document lists the edit and discard operations and the extension fields", async () => {
    const doc = (await (await h.call("GET", "/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(Object.keys(doc.paths["/payments/batches/{id}"] ?? {})).toEqual(
      expect.arrayContaining(["get", "patch", "delete"]),
    );
    const create = doc.components.schemas.PaymentBatchCreate?.properties ?? {};
    expect(Object.keys(create)).toEqual(expect.arrayContaining(["reference", "debtor_account_id"]));
    const instruction = doc.components.schemas.PaymentInstructionCreate?.properties ?? {};
    expect(Object.keys(instruction)).toEqual(expect.arrayContaining(["creditor_bic", "remittance_information"]));
  });
});

describe("the bank and the matcher", () => {
  it("debits the chosen account, books the remittance text; a line with only the RF reference is matched", async () => {
    const id = await createdId({
      debtor_account_id: PAYROLL,
      instructions: [ins({ amount: "777.00", remittance_information: { type: "creditor_reference", reference: RF } })],
    });
    await h.write("POST", `/payments/batches/${id}/submit`);
    const queue = (await (await h.call("GET", "/approvals/pending?page_size=1000", { client: "fullB" })).json()) as {
      results: { id: string; object_id: string; required_count: number }[];
    };
    const req = queue.results.find((r) => r.object_id === id);
    for (let i = 0; i < (req?.required_count ?? 0); i++)
      await h.call("POST", `/approvals/${req?.id}/approve`, {
        client: "fullB",
        idem: true,
        json: { approver: `ap-${i}` },
      });
    await runBankOnce(h.database.db, { bankSpeed: "manual" });
    const [instruction] = await h.database.db
      .select()
      .from(s.paymentInstructions)
      .where(eq(s.paymentInstructions.batchId, id));
    expect(instruction?.status).toBe("settled");
    const [booked] = await h.database.db
      .select()
      .from(s.transactions)
      .where(eq(s.transactions.dedupeKey, `payment-instruction:${instruction?.id}`));
    expect(booked).toMatchObject({ accountId: PAYROLL, remittance: RF, amount: "777.00" });

    // A statement line for the same payment without the end-to-end id, the reference written with spaces.
    const txId = "61000000-0000-4000-8000-0000000000f1";
    const today = daysAgo(0);
    await h.database.db.insert(s.transactions).values(
      noonTransaction(today, {
        id: txId,
        amount: "777.00",
        direction: "debit",
        counterpartyName: "Fjordkraft",
        remittance: "Betaling rf18 5390 0754 7034",
        source: "api",
      }),
    );
    await proposeMatchesForTransactions(h.database.db, [txId]);
    const [match] = await h.database.db
      .select()
      .from(s.reconciliationMatches)
      .where(
        and(
          eq(s.reconciliationMatches.transactionId, txId),
          eq(s.reconciliationMatches.paymentInstructionId, instruction?.id ?? ""),
        ),
      );
    expect(match?.scoreBreakdown).toMatchObject({ reference: 100, amount: 100 });
  });
});

describe("requested_execution_date: not before today in the company's time zone", () => {
  // Company A is Norwegian (Europe/Oslo, UTC+1 in winter, UTC+2 in summer); company B is Swedish.
  const at = (iso: string) => {
    clock = new Date(iso);
  };
  afterEach(() => {
    clock = null;
  });
  const createAt = (date: string, company = IDS.companyA, currency = "NOK") =>
    h.write("POST", "/payments/batches", {
      company,
      json: {
        company_id: company,
        currency,
        requested_execution_date: date,
        instructions: [ins({ currency })],
      },
    });

  it("at 23:30 UTC Oslo's date (tomorrow in UTC) is accepted and the UTC date is refused as past", async () => {
    at("2026-11-23T23:30:00Z");
    const ok = await createAt("2026-11-24");
    expect(ok.status, await ok.clone().text()).toBe(201);
    expect(await ok.json()).toMatchObject({ requested_execution_date: "2026-11-24" });
    const past = await createAt("2026-11-23");
    expect(past.status).toBe(400);
    expect(await errorsOf(past)).toEqual({
      requested_execution_date: ["must not be in the past (today is 2026-11-24 where the company is)"],
    });
  });

  it("one second before Oslo's midnight its date is still today; a minute later it is past", async () => {
    at("2026-11-23T22:59:59Z");
    expect((await createAt("2026-11-23")).status).toBe(201);
    expect(Object.keys(await errorsOf(await createAt("2026-11-22")))).toEqual(["requested_execution_date"]);
    at("2026-11-23T23:00:59Z");
    expect(Object.keys(await errorsOf(await createAt("2026-11-23")))).toEqual(["requested_execution_date"]);
  });

  it("follows summer time (UTC+2) and the company's own country", async () => {
    at("2026-07-01T22:30:00Z");
    expect((await createAt("2026-07-02")).status).toBe(201);
    expect(Object.keys(await errorsOf(await createAt("2026-07-01")))).toEqual(["requested_execution_date"]);
    // Stockholm shares Oslo's offset; the Swedish company's batch follows its own zone.
    const se = await h.write("POST", "/payments/batches", {
      company: IDS.companyB,
      json: {
        company_id: IDS.companyB,
        currency: "SEK",
        requested_execution_date: "2026-07-01",
        instructions: [ins({ currency: "SEK", amount: "10.00" })],
      },
    });
    expect(await errorsOf(se)).toEqual({
      requested_execution_date: ["must not be in the past (today is 2026-07-02 where the company is)"],
    });
  });

  it("names a past date together with the body's other errors in one 400", async () => {
    at("2026-11-23T23:30:00Z");
    const res = await h.write("POST", "/payments/batches", {
      json: {
        company_id: IDS.companyA,
        currency: "NOK",
        requested_execution_date: "2026-11-23",
        instructions: [ins({ creditor_iban: "NO00" })],
      },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(await errorsOf(res)).sort()).toEqual([
      "instructions[0].creditor_iban",
      "requested_execution_date",
    ]);
  });

  it("moving a created batch (PATCH) follows the same rule", async () => {
    at("2026-11-23T23:30:00Z");
    const id = await createdId({ requested_execution_date: "2026-11-25" });
    const patch = (json: unknown) => h.write("PATCH", `/payments/batches/${id}`, { json });
    expect(await errorsOf(await patch({ requested_execution_date: "2026-11-23" }))).toEqual({
      requested_execution_date: ["must not be in the past (today is 2026-11-24 where the company is)"],
    });
    // With another bad field the date is named as well.
    expect(
      Object.keys(await errorsOf(await patch({ requested_execution_date: "2026-11-23", reference: "" }))).sort(),
    ).toEqual(["reference", "requested_execution_date"]);
    const moved = await patch({ requested_execution_date: "2026-11-24" });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect(await moved.json()).toMatchObject({ requested_execution_date: "2026-11-24" });
    expect((await patch({ requested_execution_date: null })).status).toBe(200);
  });
});
