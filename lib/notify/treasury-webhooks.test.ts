/**
 * The Treasury webhook receiver (docs/users-and-notifications.md#webhooks-from-the-treasury-api) on a real dashboard
 * database (in-memory PGlite, one per file): refusals (off, absent / wrong / stale signature, malformed bodies) store
 * nothing; each event type reaches exactly the people it concerns; a redelivery, also two at once, tells nobody twice.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { signatureHeader } from "@treasury/contract/webhook-signing";
import { AUDIT_ACTION } from "../audit-actions";
import { memoryDashboardDb } from "../db/test-db";
import { appendAudit } from "../db/audit";
import { notifications, treasuryWebhookEvents } from "../db/schema";
import { disableUser, upsertUser } from "../db/users";
import { receiveTreasuryWebhook, type Delivery } from "./treasury-webhooks";

const SECRET = "whsec_receiver-test-secret";
const COMPANY = randomUUID();
const database = memoryDashboardDb();
const ids: Record<string, string> = {};

beforeAll(async () => {
  const add = async (name: string, roles: ("admin" | "treasurer" | "approver" | "viewer")[], companyIds?: string[]) =>
    (ids[name] = (await upsertUser(database.db, { email: `${name}@example.com`, name, roles, companyIds })).id);
  await add("admin", ["admin"]);
  await add("gone", ["admin"]);
  await disableUser(database.db, "gone@example.com");
  await add("treasurer", ["treasurer"], [COMPANY]);
  await add("elsewhere", ["treasurer"], [randomUUID()]);
  await add("approver", ["approver"]);
}, 60_000);

function delivery(event: object, opts: { secret?: string; t?: number; header?: string | null } = {}): Delivery {
  const rawBody = JSON.stringify(event);
  const t = opts.t ?? Math.floor(Date.now() / 1000);
  return {
    rawBody,
    signature: opts.header === undefined ? signatureHeader([opts.secret ?? SECRET], rawBody, t) : opts.header,
    eventId: null,
  };
}

/** One delivery to the receiver; `secrets` null = the setting unset. */
const receive = (d: Delivery, secrets: string[] | null = [SECRET]) =>
  receiveTreasuryWebhook(d, {
    secrets: secrets ?? undefined,
    db: database.db,
    email: false,
    baseUrl: "http://127.0.0.1:3000",
  });

const event = (type: string, data: Record<string, unknown>) => ({
  id: randomUUID(),
  type,
  created_at: new Date().toISOString(),
  data,
});

const failed = () => event("bank_connection.failed", { connection_id: randomUUID(), bank_name: "DNB", error: "EOF" });

async function told(eventKey: string): Promise<string[]> {
  const rows = await database.db
    .select({ userId: notifications.userId })
    .from(notifications)
    .where(eq(notifications.dedupeKey, eventKey));
  return rows.map((r) => r.userId).sort();
}

async function stored(): Promise<number> {
  const [r] = await database.db.select({ n: count() }).from(treasuryWebhookEvents);
  return r?.n ?? 0;
}

describe("refusals store nothing", () => {
  it("503 when no secret is configured; 401 for an absent, wrong, stale or malformed signature", async () => {
    const before = await stored();
    const e = failed();
    expect((await receive(delivery(e), null)).status).toBe(503);
    expect((await receive(delivery(e), [])).status).toBe(503);
    expect((await receive(delivery(e, { header: null }))).status).toBe(401);
    expect((await receive(delivery(e, { header: "t=abc,v1=zz" }))).status).toBe(401);
    expect((await receive(delivery(e, { secret: "whsec_other" }))).status).toBe(401);
    expect((await receive(delivery(e, { t: Math.floor(Date.now() / 1000) - 600 }))).status).toBe(401);
    // The body changed after signing.
    const d = delivery(e);
    expect((await receive({ ...d, rawBody: d.rawBody.replace("DNB", "EVIL") })).status).toBe(401);
    expect(await stored()).toBe(before);
    expect(await told(`bank_connection.failed:${e.id}`)).toEqual([]);
  });

  it("400 naming the field for a malformed body, signed correctly", async () => {
    const sign = (rawBody: string): Delivery => ({
      rawBody,
      signature: signatureHeader([SECRET], rawBody),
      eventId: null,
    });
    const fieldOf = async (d: Delivery) => {
      const a = await receive(d);
      expect(a.status).toBe(400);
      return Object.keys((a.body?.details as { errors: object }).errors);
    };
    const before = await stored();
    expect(await fieldOf(sign("not json{"))).toEqual(["body"]);
    expect(await fieldOf(sign(JSON.stringify({ type: "statement.missing", data: {} })))).toEqual(["id"]);
    expect(await fieldOf(sign(JSON.stringify({ id: "e1", type: "statement.missing", data: [] })))).toEqual(["data"]);
    const noCompany = event("statement.missing", { account_id: randomUUID(), expected_date: "2026-11-20" });
    expect(await fieldOf(sign(JSON.stringify(noCompany)))).toEqual(["data.company_id"]);
    const badDate = event("statement.missing", { account_id: "a", company_id: COMPANY, expected_date: "20.11.2026" });
    expect(await fieldOf(sign(JSON.stringify(badDate)))).toEqual(["data.expected_date"]);
    const e = failed();
    expect(await fieldOf({ ...delivery(e), eventId: "another-id" })).toEqual(["id"]);
    expect(await stored()).toBe(before);
  });

  it("204 and nothing stored for an event type of no interest, and for a payment that was not rejected", async () => {
    const before = await stored();
    expect((await receive(delivery(event("transaction.created", { id: "t" })))).status).toBe(204);
    expect((await receive(delivery(event("something.new", {})))).status).toBe(204);
    const settled = {
      id: randomUUID(),
      instruction_id: randomUUID(),
      status: "settled",
      occurred_at: new Date().toISOString(),
      batch_id: randomUUID(),
    };
    expect(await receive(delivery(event("payment.status.updated", settled)))).toMatchObject({ status: 204 });
    expect(await stored()).toBe(before);
  });
});

describe("who is told", () => {
  it("a failed bank connection: every enabled admin, once across a redelivery and two concurrent deliveries", async () => {
    const e = failed();
    const first = await receive(delivery(e));
    expect(first).toMatchObject({ status: 200, body: { received: true, duplicate: false, told: 1 } });
    expect(await told(`bank_connection.failed:${e.id}`)).toEqual([ids.admin]);
    expect(await receive(delivery(e))).toMatchObject({ status: 200, body: { duplicate: true, told: 0 } });

    const twice = failed();
    const answers = await Promise.all([receive(delivery(twice)), receive(delivery(twice))]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.body?.duplicate).sort()).toEqual([false, true]);
    expect(await told(`bank_connection.failed:${twice.id}`)).toEqual([ids.admin]);
  });

  it("a missing statement: admins and the treasurers who have the company, not others", async () => {
    const account = randomUUID();
    const e = event("statement.missing", {
      account_id: account,
      company_id: COMPANY,
      account_name: "Operating NOK",
      expected_date: "2026-11-20",
      due_at: "2026-11-21T10:00:00.000Z",
    });
    expect(await receive(delivery(e))).toMatchObject({ status: 200, body: { told: 2 } });
    expect(await told(`statement.missing:${account}:2026-11-20`)).toEqual([ids.admin, ids.treasurer].sort());
    const [n] = await database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, ids.treasurer ?? ""));
    expect(n).toMatchObject({ kind: "bank.alert", title: "Statement of Operating NOK for 2026-11-20 is missing" });
  });

  it("a bank rejection: the batch's creator, with the reason code and text", async () => {
    const batchId = randomUUID();
    await appendAudit(database.db, {
      userId: ids.treasurer ?? "",
      userEmail: "treasurer@example.com",
      action: AUDIT_ACTION.batchCreate,
      objectType: "payment_batch",
      objectId: batchId,
      companyId: COMPANY,
      outcome: "success",
      details: { reference: "Suppliers week 48" },
    });
    const instructionId = randomUUID();
    const e = event("payment.status.updated", {
      id: randomUUID(),
      instruction_id: instructionId,
      status: "rejected",
      occurred_at: new Date().toISOString(),
      batch_id: batchId,
      reason: "AC04",
      reason_text: "Closed account number",
    });
    expect(await receive(delivery(e))).toMatchObject({ status: 200, body: { told: 1 } });
    const rows = await database.db
      .select()
      .from(notifications)
      .where(eq(notifications.dedupeKey, `payment.bank_rejected:${instructionId}`));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: ids.treasurer,
      kind: "payment.bank_rejected",
      title: "The bank rejected a payment of batch Suppliers week 48",
      body: "The bank rejected a payment of batch Suppliers week 48: AC04 Closed account number.",
      link: `/payments/${batchId}`,
    });
  });
});
