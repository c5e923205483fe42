/**
 * Four-eyes at API level (extension): a batch remembers its initiator (the
 * body's `initiator`, else the creating client's client_id), the initiator
 * never approves it, and one client alone never supplies two approvals of a
 * request without naming two approvers. Every refusal is 403
 * permission_denied with details.reason four_eyes and changes nothing. Both forms.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../db/client";
import { CLIENTS, IDS, type ClientKey, approvalIdOf } from "../../test/harness";
import { harnessForFile } from "../../test/file-harness";

const h = harnessForFile();

type Json = Record<string, unknown>;
const FORMS: { form: string; client: ClientKey; other: ClientKey }[] = [
  { form: "Form B", client: "fullB", other: "partnerA" },
  { form: "Form A", client: "partnerA", other: "fullB" },
];

let seq = 0;
/**
 * Creates (as `client`, optionally naming an initiator) and submits a batch; small amounts need one approval, large
 * ones two.
 */
async function submitted(client: ClientKey, opts: { initiator?: string; big?: boolean } = {}) {
  const amount = opts.big ? "1500000.00" : "10.00";
  const body = {
    company_id: IDS.companyA,
    currency: "NOK",
    ...(opts.initiator !== undefined ? { initiator: opts.initiator } : {}),
    instructions: [
      {
        amount,
        currency: "NOK",
        creditor_name: "Creditor AS",
        creditor_iban: "NO9386011117947",
        end_to_end_id: `FE-${++seq}`,
      },
    ],
  };
  const created = await h.write("POST", "/payments/batches", { client, json: body });
  expect(created.status, await created.clone().text()).toBe(201);
  const batch = (await created.json()) as Json & { id: string };
  expect((await h.write("POST", `/payments/batches/${batch.id}/submit`, { client })).status).toBe(202);
  const approvalId = await approvalIdOf(h.database.db, batch.id);
  return { batch, approvalId };
}

const approve = (client: ClientKey, id: string, approver?: string) =>
  h.call("POST", `/approvals/${id}/approve`, {
    client,
    idem: true,
    json: approver === undefined ? undefined : { approver },
  });

async function counted(approvalId: string) {
  const [row] = await queryRows<{ approved_count: number; state: string; decisions: number }>(
    h.database.db,
    sql`select approved_count, state, (select count(*)::int from approval_decisions where approval_request_id =
      ${approvalId}) as decisions
        from approval_requests where id = ${approvalId}`,
  );
  return row;
}

/** The refusal's message says which part of the rule applied (and names the initiator). */
const MESSAGES = {
  initiator: (approver: string) =>
    `${approver} initiated this payment batch and cannot approve it; another person must (four-eyes)`,
  alreadyApproved:
    "This client has already approved this request; a further approval must name another approver (four-eyes)",
  approvedAsItself:
    "This client approved this request without naming an approver, so it cannot add another approval (four-eyes)",
};

async function expectFourEyes(res: Response, rule: "initiator" | "client_as_itself", message: string) {
  expect(res.status).toBe(403);
  expect(await res.json()).toEqual({
    error: "permission_denied",
    message,
    details: { reason: "four_eyes", rule },
  });
}

describe.each(FORMS)("initiator ($form)", ({ client }) => {
  it("defaults to the client_id, is stored and returned by create, get and list", async () => {
    const { batch } = await submitted(client);
    expect(batch.initiator).toBe(CLIENTS[client].clientId);
    const got = (await (
      await h.call("GET", `/payments/batches/${batch.id}`, { client, company: IDS.companyA })
    ).json()) as Json;
    expect(got.initiator).toBe(CLIENTS[client].clientId);
    const [row] = await queryRows<{ initiator: string }>(
      h.database.db,
      sql`select initiator from payment_batches where id = ${batch.id}`,
    );
    expect(row?.initiator).toBe(CLIENTS[client].clientId);
  });

  it("a named initiator is trimmed, stored and returned", async () => {
    const { batch } = await submitted(client, { initiator: "  tom@example.com " });
    expect(batch.initiator).toBe("tom@example.com");
    const path = `/payments/batches?${client === "partnerA" ? "limit" : "page_size"}=1000`;
    const list = await (await h.call("GET", path, { client, company: IDS.companyA })).json();
    const rows = (Array.isArray(list) ? list : (list as { results: Json[] }).results) as Json[];
    expect(rows.find((b) => b.id === batch.id)?.initiator).toBe("tom@example.com");
  });

  it.each([
    ["blank", "   "],
    ["over 200 characters", "x".repeat(201)],
    ["not a string", 42],
  ])("an initiator that is %s is 400 naming initiator, nothing created", async (_n, initiator) => {
    const [before] = await queryRows<{ n: number }>(h.database.db, sql`select count(*)::int as n from payment_batches`);
    const instructions = [
      { amount: "1.00", currency: "NOK", creditor_name: "C", creditor_iban: "NO9386011117947", end_to_end_id: "X" },
    ];
    const json = { company_id: IDS.companyA, currency: "NOK", initiator, instructions };
    const res = await h.write("POST", "/payments/batches", { client, json });
    expect(res.status).toBe(400);
    expect(Object.keys(((await res.json()) as { details: { errors: Json } }).details.errors)).toContain("initiator");
    const [after] = await queryRows<{ n: number }>(h.database.db, sql`select count(*)::int as n from payment_batches`);
    expect(after?.n).toBe(before?.n);
  });
});

describe.each(FORMS)("the initiator cannot approve ($form)", ({ client, other }) => {
  it("a client that creates and approves without naming anyone is refused; another client may approve", async () => {
    const { approvalId } = await submitted(client);
    await expectFourEyes(await approve(client, approvalId), "initiator", MESSAGES.initiator(CLIENTS[client].clientId));
    // Naming its own client_id is the same person.
    await expectFourEyes(
      await approve(client, approvalId, CLIENTS[client].clientId),
      "initiator",
      MESSAGES.initiator(CLIENTS[client].clientId),
    );
    expect(await counted(approvalId)).toEqual({ approved_count: 0, state: "pending", decisions: 0 });
    const ok = await approve(other, approvalId);
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(await ok.json()).toMatchObject({ state: "approved", approved_count: 1 });
  });

  it("an approver equal to the named initiator (ignoring case) is refused, any other approver counts", async () => {
    const { approvalId } = await submitted(client, { initiator: "Tom@Example.com" });
    await expectFourEyes(
      await approve(client, approvalId, "tom@example.com"),
      "initiator",
      MESSAGES.initiator("tom@example.com"),
    );
    await expectFourEyes(
      await approve(other, approvalId, "TOM@EXAMPLE.COM"),
      "initiator",
      MESSAGES.initiator("TOM@EXAMPLE.COM"),
    );
    expect(await counted(approvalId)).toMatchObject({ approved_count: 0, decisions: 0 });
    // The client's default approver (its client_id) is not Tom.
    expect((await approve(client, approvalId)).status).toBe(200);
  });

  it("the initiator may reject their own batch", async () => {
    const { approvalId } = await submitted(client, { initiator: "tom@example.com" });
    const res = await h.call("POST", `/approvals/${approvalId}/reject`, {
      client,
      idem: true,
      json: { approver: "tom@example.com", reason: "withdrawn" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ state: "rejected" });
  });

  it("a closed request still answers with its state, not four-eyes", async () => {
    const { approvalId } = await submitted(client);
    expect((await approve(other, approvalId)).status).toBe(200);
    const res = await approve(client, approvalId);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ details: { state: "approved" } });
  });
});

describe.each(FORMS)(
  "one client never meets two approvals alone without naming two approvers ($form)",
  ({ client, other }) => {
    it("an approval as the client itself, then another as itself: refused (was 409 already_decided)", async () => {
      const { approvalId } = await submitted(client, { big: true, initiator: "maker@example.com" });
      expect((await approve(client, approvalId)).status).toBe(200);
      await expectFourEyes(await approve(client, approvalId), "client_as_itself", MESSAGES.alreadyApproved);
      expect(await counted(approvalId)).toEqual({ approved_count: 1, state: "partially_approved", decisions: 1 });
    });

    it("an approval as the client itself, then one naming a person: refused; another client completes it", async () => {
      const { approvalId } = await submitted(client, { big: true, initiator: "maker@example.com" });
      expect((await approve(client, approvalId)).status).toBe(200);
      await expectFourEyes(
        await approve(client, approvalId, "bob@example.com"),
        "client_as_itself",
        MESSAGES.approvedAsItself,
      );
      expect(await counted(approvalId)).toMatchObject({ approved_count: 1, decisions: 1 });
      const done = await approve(other, approvalId);
      expect(done.status).toBe(200);
      expect(await done.json()).toMatchObject({ state: "approved", approved_count: 2 });
    });

    it(
      "an approval naming a person, then one as the client itself: refused; a second named person completes " + "it",
      async () => {
        const { approvalId } = await submitted(client, { big: true, initiator: "maker@example.com" });
        expect((await approve(client, approvalId, "alice@example.com")).status).toBe(200);
        await expectFourEyes(await approve(client, approvalId), "client_as_itself", MESSAGES.alreadyApproved);
        await expectFourEyes(
          await approve(client, approvalId, CLIENTS[client].clientId),
          "client_as_itself",
          MESSAGES.alreadyApproved,
        );
        const done = await approve(client, approvalId, "bob@example.com");
        expect(done.status).toBe(200);
        expect(await done.json()).toMatchObject({ state: "approved", approved_count: 2 });
      },
    );

    it("with one approval required, the client itself may approve a batch someone else initiated", async () => {
      const { approvalId } = await submitted(client, { initiator: "maker@example.com" });
      expect((await approve(client, approvalId)).status).toBe(200);
    });
  },
);
