/**
 * The webhook receiver against the real local treasury-api (docs/users-and-notifications.md#webhooks-from-the-treasury-api):
 * the receiver's route handler behind a real HTTP listener on loopback, subscribed with `subscribeReceiver` (as
 * `npm run dev` does); the API's own workers sign and deliver the events. A bank connection whose pulls fail three
 * times tells the admin (not the treasurer); an account whose daily statements stopped ten days ago is noticed by the
 * API's own statement watch (run every 0.5 s here) and tells the admins and the company's treasurers, once per
 * missing day; the simulated bank's rejection of a payment tells the batch's creator with the reason code; a
 * redelivery of the same signed event tells nobody again.
 */
import { createServer, type Server } from "node:http";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { signatureHeader } from "@treasury/contract/webhook-signing";
import { buildDailyCamt053 } from "@treasury/test-support/camt053-builder";
import { manyAccounts } from "../../e2e/many-accounts";
import { AUDIT_ACTION } from "../audit-actions";
import { addDaysIso, todayUtc } from "../dates";
import { appendAudit } from "../db/audit";
import { notifications } from "../db/schema";
import { upsertUser } from "../db/users";
import { dashboardDb } from "../server/db";
import { collectAll } from "../treasury-client";
import { startLocalApi, useBffEnv, type LocalApi } from "../bff/testing/local-api";
import { RECEIVER_PATH, subscribeReceiver } from "./subscribe";

let local: LocalApi;
let receiver: Server;
let secret: string;
let dir: string;
let companyId: string;
const bodies: string[] = [];
const people: Record<string, string> = {};

beforeAll(async () => {
  process.env.DASHBOARD_BCRYPT_COST = "4";
  local = await startLocalApi({ config: { allowPrivateWebhooks: true, statementWatchMs: 500 } });
  companyId = local.company().id;
  const { POST } = await import("../../app/api/webhooks/treasury/route");
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      bodies.push(body);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      void POST(new NextRequest(`http://127.0.0.1${req.url}`, { method: "POST", headers, body })).then(async (r) => {
        res.writeHead(r.status, { "content-type": "application/json" });
        res.end(await r.text());
      });
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
  const port = (receiver.address() as { port: number }).port;
  const origin = `http://127.0.0.1:${port}`;
  secret = (await subscribeReceiver(local.client, `${origin}${RECEIVER_PATH}`)).secret;
  useBffEnv(local, origin, { TREASURY_WEBHOOK_SECRET: secret });
  const db = await dashboardDb();
  for (const [name, roles] of [
    ["admin", ["admin"]],
    ["creator", ["treasurer"]],
  ] as const)
    people[name] = (await upsertUser(db, { email: `${name}@example.com`, name, roles: [...roles] })).id;
  // A treasurer of another company only: not told of this company's missing statement.
  const other = local.companies().find((c) => c.id !== companyId)?.id ?? "";
  people.outsider = (
    await upsertUser(db, { email: "outsider@example.com", name: "outsider", roles: ["treasurer"], companyIds: [other] })
  ).id;
  dir = mkdtempSync(path.join(tmpdir(), "treasury-webhook-receiver-"));
}, 120_000);

afterAll(async () => {
  await local?.api.close();
  await new Promise((ok) => receiver?.close(ok));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The notifications of `kind` per user id, polled until `ready` holds (bounded; the API delivers every 0.5 s). */
async function until(kind: string, ready: (rows: (typeof notifications.$inferSelect)[]) => boolean, ms = 60_000) {
  const db = await dashboardDb();
  const end = Date.now() + ms;
  for (;;) {
    const rows = await db.select().from(notifications).where(eq(notifications.kind, kind));
    if (ready(rows)) return rows;
    if (Date.now() > end) throw new Error(`no ${kind} notification in time: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const writeHeaders = async (company: string) => ({
  authorization: `Bearer ${await local.client.tokens.get()}`,
  "x-company-id": company,
  "content-type": "application/json",
  "idempotency-key": randomUUID(),
});

describe("events of the real local API reach the right people", () => {
  it("a bank connection failing three times tells the admin once, not the treasurer", async () => {
    // Another company than the payment's below: a connection takes over its accounts' payments from the simulated bank.
    const other = local.companies().find((c) => c.id !== companyId)?.id ?? "";
    const [account] = await collectAll(local.client.listAccounts({ companyId: other }, { pageSize: 1 }), {
      maxPages: 1,
    });
    if (!account) throw new Error("the demo seed has no account");
    const res = await fetch(`${local.baseUrl}/bank-connections`, {
      method: "POST",
      headers: await writeHeaders(other),
      body: JSON.stringify({
        bank_name: "Failing Bank",
        account_ids: [account.id],
        channel: { channel: "folder", inbox_dir: path.join(dir, "in"), outbox_dir: path.join(dir, "missing") },
      }),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    for (let i = 0; i < 3; i++) {
      const pull = await fetch(`${local.baseUrl}/bank-connections/${id}/pull`, {
        method: "POST",
        headers: await writeHeaders(other),
      });
      expect(pull.status).toBe(200);
    }
    // The statement watch below tells of missing statements under the same kind: this case reads only its own.
    const failed = (r: (typeof notifications.$inferSelect)[]) =>
      r.filter((n) => n.title === "Bank connection to Failing Bank failed");
    const rows = failed(await until("bank.alert", (r) => failed(r).length > 0));
    expect(rows.map((r) => r.userId)).toEqual([people.admin]);
  }, 90_000);

  it("the API's statement watch tells admins and the company's treasurers of a missing statement, once per day", async () => {
    const [body] = manyAccounts(companyId, 1);
    if (!body) throw new Error("one account expected");
    await local.client.upsertAccount(
      { companyId, idempotencyKey: randomUUID() },
      { ...body, name: "Stopped statements CHF" },
    );
    const last = addDaysIso(todayUtc(), -10);
    const form = new FormData();
    form.append("files", new Blob([buildDailyCamt053(body.external_ref, last)]), "stopped.xml");
    await local.client.uploadStatements({ companyId, idempotencyKey: randomUUID() }, form);
    // The weekdays after the last statement that were due (the learned schedule: the next day at 10:00 UTC).
    const due: string[] = [];
    for (let d = addDaysIso(last, 1); d <= todayUtc(); d = addDaysIso(d, 1))
      if (
        new Date(`${d}T00:00:00Z`).getUTCDay() % 6 !== 0 &&
        `${addDaysIso(d, 1)}T10:00:00.000Z` < new Date().toISOString()
      )
        due.push(d);
    const titles = due.map((d) => `Statement of Stopped statements CHF for ${d} is missing`);
    const mine = (r: (typeof notifications.$inferSelect)[]) =>
      r.filter((n) => n.title.startsWith("Statement of Stopped statements CHF "));
    const rows = mine(await until("bank.alert", (r) => mine(r).length >= 2 * due.length));
    for (const person of [people.admin, people.creator]) {
      const theirs = rows.filter((r) => r.userId === person);
      expect(theirs.map((r) => r.title).sort()).toEqual([...titles].sort());
      expect(theirs.every((r) => r.link === "/statements")).toBe(true);
    }
    expect(rows.some((r) => r.userId === people.outsider)).toBe(false);
    // The watch keeps running: a few more passes tell nobody again.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(mine(await until("bank.alert", () => true))).toHaveLength(rows.length);
  }, 90_000);

  it("the simulated bank's rejection tells the batch's creator with the reason, once across a redelivery", async () => {
    const client = local.client;
    const batch = await client.createBatch(
      { companyId, idempotencyKey: randomUUID() },
      {
        company_id: companyId,
        currency: "NOK",
        instructions: [
          {
            amount: "12.50",
            currency: "NOK",
            creditor_name: "REJECT Holdings",
            creditor_iban: "NO9386011117947",
            end_to_end_id: "WH-REJ-1",
          },
        ],
      },
    );
    // What the dashboard's create route records: who created the batch.
    await appendAudit(await dashboardDb(), {
      userId: people.creator ?? null,
      userEmail: "creator@example.com",
      action: AUDIT_ACTION.batchCreate,
      objectType: "payment_batch",
      objectId: batch.id,
      companyId,
      outcome: "success",
      details: { reference: "Webhook test batch" },
    });
    await client.submitBatch({ companyId, idempotencyKey: randomUUID() }, batch.id);
    const pending = await collectAll(client.listPendingApprovals({ companyId }, { pageSize: 100 }));
    const request = pending.find((p) => p.object_id === batch.id);
    if (!request) throw new Error("no approval request");
    await client.approve({ companyId, idempotencyKey: randomUUID() }, request.id, { approver: "someone-else" });
    const rows = await until("payment.bank_rejected", (r) => r.length > 0);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: people.creator,
      title: "The bank rejected a payment of batch Webhook test batch",
      link: `/payments/${batch.id}`,
    });
    expect(rows[0]?.body).toContain("AC04");

    // The API delivers at least once: the same event, signed again, changes nothing.
    const delivered = bodies.find((b) => b.includes('"rejected"') && b.includes(batch.id));
    if (!delivered) throw new Error("the rejection was not delivered");
    const again = await fetch(`${receiverUrl()}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-signature": signatureHeader([secret], delivered) },
      body: delivered,
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ duplicate: true, told: 0 });
    expect(await until("payment.bank_rejected", () => true)).toHaveLength(1);
  }, 90_000);
});

function receiverUrl(): string {
  return `http://127.0.0.1:${(receiver.address() as { port: number }).port}${RECEIVER_PATH}`;
}
