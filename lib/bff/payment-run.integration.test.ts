/**
 * The payment run through the BFF's real route handlers, against the real
 * local treasury-api (in-memory PGlite, small demo seed) and the dashboard's
 * in-memory database:
 *
 * - a batch with reference, debtor account, BIC and RF remittance is created
 *   and read back; bad inputs are 400s naming the field, whether the BFF
 *   (RF check digits, BIC, remittance length, past date in the company's time
 *   zone, non-SEPA IBAN without BIC) or the API (debtor account of another
 *   currency or company) refuses them;
 * - a created batch is edited (PATCH) and discarded (DELETE), each audited;
 *   once submitted both are 409;
 * - against an API that does not advertise the extensions, they are refused
 *   with 400 naming the field and nothing is sent, editing / discarding are
 *   409, and a plain batch is still created.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../auth/session", async () => (await import("./testing/local-api")).sessionModule);
vi.mock("next/headers", async () => (await import("./testing/local-api")).headersModule);

import { listAudit } from "../db/audit";
import { dashboardDb } from "../server/db";
import { collectAll } from "../treasury-client";
import type { Capabilities } from "./capabilities";
import { companyToday } from "./queries/risk";
import { addDaysIso } from "../dates";
import {
  callRoute,
  errorFields,
  startLocalApi,
  testUser,
  upstreamPath,
  useBffEnv,
  type LocalApi,
  type RouteHandler,
} from "./testing/local-api";
import * as batchesRoute from "../../app/api/treasury/payments/batches/route";
import * as batchRoute from "../../app/api/treasury/payments/batches/[id]/route";
import * as submitRoute from "../../app/api/treasury/payments/batches/[id]/submit/route";
import * as instructionsRoute from "../../app/api/treasury/payments/batches/[id]/instructions/route";
import * as rejectRoute from "../../app/api/treasury/approvals/[id]/reject/route";

const ORIGIN = "http://127.0.0.1:3997";
type Handler = RouteHandler;

let local: LocalApi;
let company: { id: string; country: string };
let nok: string;
let other: string;
let foreign: string;
const sent: string[] = [];

const treasurer = testUser("Tina Treasurer", ["treasurer"]);

function call(handler: Handler, method: string, path: string, opts: { id?: string; json?: unknown } = {}) {
  return callRoute(handler, {
    who: treasurer,
    origin: ORIGIN,
    method,
    path,
    companyId: company.id,
    params: opts.id ? { id: opts.id } : {},
    json: opts.json,
  });
}

let seq = 0;
function ins(over: Record<string, unknown> = {}) {
  seq++;
  return {
    amount: "100.00",
    currency: "NOK",
    creditor_name: "Fjordkraft AS",
    creditor_iban: "NO93 8601 1117 947",
    end_to_end_id: `PR-${Date.now()}-${seq}`,
    ...over,
  };
}

const create = (body: Record<string, unknown>) =>
  call(batchesRoute.POST as Handler, "POST", "/payments/batches", {
    json: { company_id: company.id, currency: "NOK", instructions: [ins()], ...body },
  });

const g = globalThis as { __treasuryCapabilities?: Capabilities };

beforeAll(async () => {
  local = await startLocalApi({
    fetch: (input, init, next) => {
      if (init?.method && init.method !== "GET" && upstreamPath(input).startsWith("/payments/"))
        sent.push(`${init.method} ${String(input instanceof Request ? input.url : input)}`);
      return next(input, init);
    },
  });
  useBffEnv(local, ORIGIN);
  const client = local.client;
  // Nordlys Holding AS holds NOK, EUR and USD accounts; Nordlys Norge AS is another company of the same client.
  const c = local.company("Nordlys Holding AS");
  const sister = local.company("Nordlys Norge AS");
  company = { id: c.id, country: "NO" };
  const accounts = await collectAll(client.listAccounts({ companyId: c.id }, { pageSize: 1000 }));
  nok = accounts.find((a) => a.currency === "NOK" && a.status !== "closed")?.id ?? "";
  other = accounts.find((a) => a.currency !== "NOK")?.id ?? "";
  const theirs = await collectAll(client.listAccounts({ companyId: sister.id }, { pageSize: 1000 }));
  foreign = theirs.find((a) => a.currency === "NOK")?.id ?? "";
  expect({ nok, other, foreign }).toEqual({
    nok: expect.any(String),
    other: expect.any(String),
    foreign: expect.any(String),
  });
}, 120_000);
afterAll(async () => {
  await local?.api.close();
});

describe("with an API that advertises the payment-run extensions", () => {
  it("creates a batch with reference, debtor account, BIC and RF remittance and reads them back", async () => {
    const r = await create({
      reference: "Suppliers week 48",
      debtor_account_id: nok,
      instructions: [
        ins({
          creditor_bic: "DNBANOKK",
          remittance_information: { type: "creditor_reference", reference: "rf18 5390 0754 7034" },
        }),
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ reference: "Suppliers week 48", debtor_account_id: nok });
    // The audit log names the batch by its reference.
    const [created] = await listAudit(await dashboardDb(), {
      companyIds: null,
      action: "payment_batch.create",
      objectIds: [String(r.body.id)],
      limit: 10,
    });
    expect(created?.details).toMatchObject({ reference: "Suppliers week 48" });
    const list = await call(instructionsRoute.GET as Handler, "GET", `/payments/batches/${r.body.id}/instructions`, {
      id: String(r.body.id),
    });
    expect((list.body.items as Record<string, unknown>[])[0]).toMatchObject({
      creditor_bic: "DNBANOKK",
      remittance_information: { type: "creditor_reference", reference: "RF18539007547034" },
    });
  });

  it.each([
    [
      "RF check digits",
      {
        instructions: [ins({ remittance_information: { type: "creditor_reference", reference: "RF19539007547034" } })],
      },
      "instructions[0].remittance_information.reference",
    ],
    ["BIC", { instructions: [ins({ creditor_bic: "DNBA NO" })] }, "instructions[0].creditor_bic"],
    ["IBAN", { instructions: [ins({ creditor_iban: "NO93 8601 1117 948" })] }, "instructions[0].creditor_iban"],
    [
      "remittance over 140",
      { instructions: [ins({ remittance_information: { type: "unstructured", text: "x".repeat(141) } })] },
      "instructions[0].remittance_information.text",
    ],
    [
      "non-SEPA IBAN without BIC",
      { instructions: [ins({ creditor_iban: "BR1500000000000010932840814P2" })] },
      "instructions[0].creditor_bic",
    ],
    ["debtor account in another currency", { debtor_account_id: "OTHER" }, "debtor_account_id"],
    ["debtor account of another company", { debtor_account_id: "FOREIGN" }, "debtor_account_id"],
    ["past date", { requested_execution_date: addDaysIso(companyToday("NO"), -1) }, "requested_execution_date"],
  ])("400 naming the field: %s", async (_name, body, field) => {
    const b = { ...body } as Record<string, unknown>;
    if (b.debtor_account_id === "OTHER") b.debtor_account_id = other;
    if (b.debtor_account_id === "FOREIGN") b.debtor_account_id = foreign;
    const r = await create(b);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(errorFields(r.body)).toContain(field);
  });

  it("edits and discards a created batch, audited; a submitted batch is 409 for both", async () => {
    const made = await create({ reference: "Draft" });
    const id = String(made.body.id);
    const edited = await call(batchRoute.PATCH as Handler, "PATCH", `/payments/batches/${id}`, {
      id,
      json: { reference: "Rent December", instructions: [ins({ amount: "10.50" }), ins({ amount: "0.25" })] },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ reference: "Rent December", total_amount: "10.75", instruction_count: 2 });
    const badEdit = await call(batchRoute.PATCH as Handler, "PATCH", `/payments/batches/${id}`, {
      id,
      json: { debtor_account_id: other },
    });
    expect(badEdit.status).toBe(400);
    expect(errorFields(badEdit.body)).toEqual(["debtor_account_id"]);

    const db = await dashboardDb();
    const edits = await listAudit(db, { companyIds: null, action: "payment_batch.edit", objectIds: [id], limit: 10 });
    expect(edits).toHaveLength(1);
    expect(edits[0]?.details).toMatchObject({ reference: "Rent December", instruction_count: 2 });

    const gone = String((await create({})).body.id);
    const del = await call(batchRoute.DELETE as Handler, "DELETE", `/payments/batches/${gone}`, { id: gone });
    expect(del.status).toBe(204);
    expect((await call(batchRoute.DELETE as Handler, "DELETE", `/payments/batches/${gone}`, { id: gone })).status).toBe(
      404,
    );
    expect(
      await listAudit(db, { companyIds: null, action: "payment_batch.discard", objectIds: [gone], limit: 10 }),
    ).toHaveLength(1);

    expect((await call(submitRoute.POST as Handler, "POST", `/payments/batches/${id}/submit`, { id })).status).toBe(
      202,
    );
    const late = await call(batchRoute.PATCH as Handler, "PATCH", `/payments/batches/${id}`, {
      id,
      json: { reference: "late" },
    });
    expect(late.status).toBe(409);
    expect((await call(batchRoute.DELETE as Handler, "DELETE", `/payments/batches/${id}`, { id })).status).toBe(409);

    // An approver's decision on it is named in the log by the batch's reference as last edited.
    const pending = await collectAll(local.client.listPendingApprovals({ companyId: company.id }, { pageSize: 1000 }));
    const approvalId = pending.find((a) => a.object_id === id)?.id ?? "";
    expect(approvalId).not.toBe("");
    const rejected = await callRoute(rejectRoute.POST as Handler, {
      who: testUser("Ada Approver", ["approver"]),
      origin: ORIGIN,
      method: "POST",
      path: `/approvals/${approvalId}/reject`,
      companyId: company.id,
      params: { id: approvalId },
      json: { reason: "Wrong week" },
    });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    const [decision] = await listAudit(db, {
      companyIds: null,
      action: "approval.reject",
      objectIds: [approvalId],
      limit: 10,
    });
    expect(decision?.details).toMatchObject({ batch_id: id, reference: "Rent December", reason: "Wrong week" });
  });
});

describe("with an API that does not advertise them", () => {
  it("refuses the extension fields by name and sends nothing; edit / discard 409; a plain batch works", async () => {
    const real = g.__treasuryCapabilities;
    g.__treasuryCapabilities = {
      has: (name) => name === "payments.debtor_account",
      ready: Promise.resolve(),
      refresh: async () => {},
      stop: () => {},
    };
    try {
      sent.length = 0;
      const r = await create({
        reference: "Named",
        debtor_account_id: nok,
        instructions: [
          ins({ creditor_bic: "DNBANOKK", remittance_information: { type: "unstructured", text: "Inv 1" } }),
        ],
      });
      expect(r.status).toBe(400);
      expect(errorFields(r.body).sort()).toEqual([
        "debtor_account_id",
        "instructions[0].creditor_bic",
        "instructions[0].remittance_information",
        "reference",
      ]);
      expect(r.body.message).toMatch(/not supported by the connected Treasury API/);
      expect(sent).toEqual([]);
      const plain = await create({});
      expect(plain.status).toBe(201);
      const id = String(plain.body.id);
      const edit = await call(batchRoute.PATCH as Handler, "PATCH", `/payments/batches/${id}`, {
        id,
        json: { reference: "x" },
      });
      expect(edit.status).toBe(409);
      expect((await call(batchRoute.DELETE as Handler, "DELETE", `/payments/batches/${id}`, { id })).status).toBe(409);
      expect(sent.filter((s) => !s.startsWith("POST"))).toEqual([]);
    } finally {
      g.__treasuryCapabilities = real;
    }
  });
});
