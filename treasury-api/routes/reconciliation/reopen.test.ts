/**
 * The reopen extension: a confirmed match back to `proposed` within 24 hours, its decision kept in the reopen audit,
 * the 24-hour limit, the state conflict, the scope (404), a bad id (400), an idempotent replay, and the route
 * advertised in the OpenAPI document.
 */
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import * as s from "../../db/schema";
import { proposeMatchesForTransactions } from "../../domain/matching";
import { listReopenings } from "../../db/repos/reconciliation-reopen";
import { CLIENTS, IDS, daysAgo, type ClientKey, insertCompletedBatch, noonTransaction } from "../../test/harness";
import { harnessForFile } from "../../test/file-harness";

const h = harnessForFile({ bankSpeed: "instant" });

type Match = { id: string; state: string; decided_at?: string | null; reviewer?: string | null };
let seq = 0;
const uid = () => crypto.randomUUID();

/** One settled instruction and its booked debit in company A, proposed by the matcher; @returns the match id. */
async function proposed(): Promise<string> {
  const db = h.database.db;
  const batchId = uid();
  const date = daysAgo(1);
  await insertCompletedBatch(db, { id: batchId, requestedExecutionDate: date });
  const e2e = `REOPEN-${++seq}`;
  const insId = uid();
  await db.insert(s.paymentInstructions).values({
    id: insId,
    batchId,
    tenantId: IDS.tenant,
    companyId: IDS.companyA,
    position: 0,
    amount: "1500.00",
    currency: "NOK",
    creditorName: "Reopen Supply AS",
    creditorIban: "NO9386011117947",
    endToEndId: e2e,
    status: "settled",
  });
  const txId = uid();
  await db.insert(s.transactions).values(
    noonTransaction(date, {
      id: txId,
      amount: "1500.00",
      direction: "debit",
      counterpartyName: "Reopen Supply AS",
      remittance: e2e,
      endToEndId: e2e,
    }),
  );
  await db.transaction((tx) => proposeMatchesForTransactions(tx, [txId]));
  const [m] = await queryRows<{ id: string }>(
    db,
    sql`select id from reconciliation_matches where transaction_id = ${txId}`,
  );
  if (!m) throw new Error("no proposal");
  return m.id;
}

const post = (
  kind: "confirm" | "reopen",
  id: string,
  o: { json?: unknown; client?: ClientKey; company?: string; idem?: string | true } = {},
) =>
  h.write("POST", `/reconciliation/matches/${id}/${kind}`, {
    client: o.client ?? "fullB",
    company: o.company,
    json: o.json,
    idem: o.idem ?? true,
  });

async function confirmed(): Promise<string> {
  const id = await proposed();
  const res = await post("confirm", id, { json: { reviewer: "rule:Exact 100" } });
  expect(res.status).toBe(200);
  return id;
}

describe("POST /reconciliation/matches/{id}/reopen", () => {
  it("puts a confirmed match back to proposed, keeps the undone decision in the reopen audit, emits updated", async () => {
    const id = await confirmed();
    const res = await post("reopen", id, { json: { reviewer: "treasurer@example.com", reason: "wrong payee" } });
    expect(res.status).toBe(200);
    const m = (await res.json()) as Match;
    expect(m).toMatchObject({ id, state: "proposed", decided_at: null, reviewer: null });
    const [audit] = await listReopenings(h.database.db, id);
    expect(audit).toMatchObject({
      matchId: id,
      companyId: IDS.companyA,
      clientId: CLIENTS.fullB.id,
      reviewer: "treasurer@example.com",
      reason: "wrong payee",
      confirmedReviewer: "rule:Exact 100",
    });
    expect(audit?.confirmedAt).toBeTruthy();
    const events = await queryRows<{ n: number }>(
      h.database.db,
      sql`select count(*)::int as n from webhook_events where type = 'reconciliation.match.updated'
        and payload->'data'->>'id' = ${id} and payload->'data'->>'state' = 'proposed'`,
    );
    expect(events[0]?.n).toBe(1);
    // Proposed again: it can be confirmed again.
    expect((await post("confirm", id)).status).toBe(200);
  });

  it("refuses past 24 hours after the confirmation (409 reopen_window_passed); just inside is allowed", async () => {
    const late = await confirmed();
    const inside = await confirmed();
    const at = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    await h.database.db
      .update(s.reconciliationMatches)
      .set({ decidedAt: at(24.05) })
      .where(eq(s.reconciliationMatches.id, late));
    await h.database.db
      .update(s.reconciliationMatches)
      .set({ decidedAt: at(23.9) })
      .where(eq(s.reconciliationMatches.id, inside));
    const res = await post("reopen", late);
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: string; details: Record<string, unknown> };
    expect(body.error).toBe("conflict");
    expect(body.details).toMatchObject({ reason: "reopen_window_passed", window_hours: 24, state: "confirmed" });
    expect((await post("reopen", inside)).status).toBe(200);
  });

  it("409 for a match that is not confirmed (proposed, rejected)", async () => {
    const id = await proposed();
    const res = await post("reopen", id);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { details: unknown }).details).toMatchObject({
      state: "proposed",
      allowed: ["confirmed"],
    });
    expect((await post("confirm", id)).status).toBe(200);
    expect((await post("reopen", id)).status).toBe(200);
    const rejected = await proposed();
    expect(
      (await h.call("POST", `/reconciliation/matches/${rejected}/reject`, { client: "fullB", idem: true })).status,
    ).toBe(200);
    expect((await post("reopen", rejected)).status).toBe(409);
  });

  it("404 outside the caller's scope or another company, 400 for a bad id, body or missing key", async () => {
    const id = await confirmed();
    expect((await post("reopen", id, { client: "otherB" })).status).toBe(404);
    expect((await post("reopen", id, { company: IDS.companyB })).status).toBe(404);
    expect((await post("reopen", uid())).status).toBe(404);
    const bad = await post("reopen", "not-a-uuid");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { details: { errors: Record<string, unknown> } }).details.errors).toHaveProperty(
      "id",
    );
    expect((await post("reopen", id, { json: { reason: "" } })).status).toBe(400);
    expect((await post("reopen", id, { json: { colour: "red" } })).status).toBe(400);
    expect((await h.call("POST", `/reconciliation/matches/${id}/reopen`, { client: "fullB" })).status).toBe(400);
    // Still confirmed after all of these.
    const still = await h.call("GET", `/reconciliation/matches/${id}`, { client: "fullB" });
    expect(((await still.json()) as Match).state).toBe("confirmed");
  });

  it("replays a retried reopen under the same Idempotency-Key: one reopening, the same answer", async () => {
    const id = await confirmed();
    const key = uid();
    const first = await post("reopen", id, { idem: key, json: { reason: "undo" } });
    expect(first.status).toBe(200);
    const again = await post("reopen", id, { idem: key, json: { reason: "undo" } });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    expect(await listReopenings(h.database.db, id)).toHaveLength(1);
    // A new key is a new request: the match is proposed now, so 409.
    expect((await post("reopen", id)).status).toBe(409);
  });

  it("is advertised in the OpenAPI document", async () => {
    const res = await h.call("GET", "/openapi.json");
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    expect(doc.paths["/reconciliation/matches/{id}/reopen"]).toHaveProperty("post");
  });
});
