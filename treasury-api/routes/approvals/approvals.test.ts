import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import { IDS, type ClientKey, approvalIdOf } from "../../test/harness";
import { harnessForFile } from "../../test/file-harness";

const h = harnessForFile();

let seq = 0;
/** Creates and submits a batch through the API; returns the batch id and its approval request. */
async function submitted(
  amounts: string[],
  company: string = IDS.companyA,
  currency = "NOK",
): Promise<{ batchId: string; approvalId: string }> {
  const body = {
    company_id: company,
    currency,
    // A named initiator, so that the client's default approver (its client_id) is another person (four-eyes).
    initiator: "maker@example.com",
    instructions: amounts.map((amount, i) => ({
      amount,
      currency,
      creditor_name: `Creditor ${i}`,
      creditor_iban: "NO9386011117947",
      end_to_end_id: `APR-${++seq}`,
    })),
  };
  const created = await h.write("POST", "/payments/batches", { company, json: body });
  expect(created.status).toBe(201);
  const batchId = ((await created.json()) as { id: string }).id;
  expect((await h.write("POST", `/payments/batches/${batchId}/submit`, { company })).status).toBe(202);
  const approvalId = await approvalIdOf(h.database.db, batchId);
  return { batchId, approvalId };
}

async function decide(
  kind: "approve" | "reject",
  id: string,
  opts: { json?: unknown; client?: ClientKey; company?: string; idem?: string } = {},
): Promise<Response> {
  return h.write("POST", `/approvals/${id}/${kind}`, {
    client: opts.client ?? "fullB",
    company: opts.company,
    json: opts.json,
    idem: opts.idem ?? true,
  });
}

async function batchStatus(id: string, company: string = IDS.companyA): Promise<string> {
  return (
    (await (await h.call("GET", `/payments/batches/${id}`, { client: "fullB", company })).json()) as { status: string }
  ).status;
}

describe("GET /approvals/pending", () => {
  it("lists open requests of every linked company without the header, one with it, in both forms", async () => {
    const a = await submitted(["10.00"]);
    const b = await submitted(["20.00"], IDS.companyB, "SEK");
    const all = (await (await h.call("GET", "/approvals/pending?page_size=1000", { client: "fullB" })).json()) as {
      count: number;
      results: { id: string; company_id: string; state: string; object_type: string }[];
    };
    const ids = all.results.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining([a.approvalId, b.approvalId]));
    expect(all.results.find((r) => r.id === a.approvalId)).toMatchObject({
      object_id: a.batchId,
      state: "pending",
      required_count: 1,
      approved_count: 0,
      object_type: "payment_batch",
      company_id: IDS.companyA,
    });

    const onlyB = (await (
      await h.call("GET", "/approvals/pending", { client: "fullB", company: IDS.companyB })
    ).json()) as { results: { id: string }[] };
    expect(onlyB.results.map((r) => r.id)).toContain(b.approvalId);
    expect(onlyB.results.map((r) => r.id)).not.toContain(a.approvalId);

    const formA = (await (await h.call("GET", "/approvals/pending?limit=1000", { client: "partnerA" })).json()) as {
      id: string;
    }[];
    expect(formA.map((r) => r.id)).toEqual(expect.arrayContaining([a.approvalId, b.approvalId]));

    const other = (await (await h.call("GET", "/approvals/pending", { client: "otherB" })).json()) as { count: number };
    expect(other.count).toBe(0);
    expect((await h.call("GET", "/approvals/pending", { client: "readB" })).status).toBe(403);
    expect((await h.call("GET", "/approvals/pending", { client: "fullB", company: IDS.companyC })).status).toBe(403);
    expect((await h.call("GET", "/approvals/pending?state=pending", { client: "fullB" })).status).toBe(400);
    expect((await h.call("GET", "/approvals/pending?page=0", { client: "fullB" })).status).toBe(400);

    const one = await h.call("GET", `/approvals/${a.approvalId}`, { client: "fullB" });
    expect(one.status).toBe(200);
    expect((await h.call("GET", `/approvals/${a.approvalId}`, { client: "otherB" })).status).toBe(404);
  });
});

describe("POST /approvals/{id}/approve and /reject", () => {
  it("one approval approves a small batch; the batch becomes approved and leaves the queue", async () => {
    const { batchId, approvalId } = await submitted(["500.00", "250.50"]);
    const res = await decide("approve", approvalId);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: approvalId, state: "approved", approved_count: 1, required_count: 1 });
    expect(await batchStatus(batchId)).toBe("approved");
    const [d] = await queryRows<{ approver: string; decision: string }>(
      h.database.db,
      sql`select approver, decision from approval_decisions where approval_request_id = ${approvalId}`,
    );
    expect(d).toEqual({ approver: "test-full-b", decision: "approve" });
    const queue = (await (await h.call("GET", "/approvals/pending?page_size=1000", { client: "fullB" })).json()) as {
      results: { id: string }[];
    };
    expect(queue.results.map((r) => r.id)).not.toContain(approvalId);

    const again = await decide("approve", approvalId, { json: { approver: "someone-else" } });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      error: "conflict",
      details: { state: "approved", allowed: ["pending", "partially_approved"] },
    });
    const reject = await decide("reject", approvalId, { json: { approver: "someone-else" } });
    expect(reject.status).toBe(409);
    // Submitting an approved batch again is illegal too.
    const resubmit = await h.write("POST", `/payments/batches/${batchId}/submit`);
    expect(await resubmit.json()).toMatchObject({ details: { state: "approved", allowed: ["created"] } });
  });

  it("four-eyes: two distinct approvers, one approver counts once, replays count nothing", async () => {
    const { batchId, approvalId } = await submitted(["600000.00", "400000.00"]);
    const key = crypto.randomUUID();
    const first = await decide("approve", approvalId, {
      json: { approver: "alice@example.com", reason: "checked invoices" },
      idem: key,
    });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ state: "partially_approved", approved_count: 1, required_count: 2 });
    expect(await batchStatus(batchId)).toBe("pending_approval");

    const replay = await decide("approve", approvalId, {
      json: { approver: "alice@example.com", reason: "checked invoices" },
      idem: key,
    });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.json()).toMatchObject({ approved_count: 1 });

    const twice = await decide("approve", approvalId, { json: { approver: "alice@example.com" } });
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({ details: { reason: "already_decided", approver: "alice@example.com" } });
    // alice cannot turn around and reject either: she has decided.
    expect((await decide("reject", approvalId, { json: { approver: "alice@example.com" } })).status).toBe(409);

    const partial = (await (await h.call("GET", "/approvals/pending?page_size=1000", { client: "fullB" })).json()) as {
      results: { id: string; state: string }[];
    };
    expect(partial.results.find((r) => r.id === approvalId)?.state).toBe("partially_approved");

    const second = await decide("approve", approvalId, { json: { approver: "bob@example.com" }, client: "partnerA" });
    expect(second.status).toBe(200);
    expect(await second.json()).toMatchObject({ state: "approved", approved_count: 2 });
    expect(await batchStatus(batchId)).toBe("approved");
    const [due] = await queryRows<{ due: boolean }>(
      h.database.db,
      sql`select bank_next_step_at is not null as due from payment_batches where id = ${batchId}`,
    );
    expect(due?.due).toBe(true);
  });

  it("a rejection rejects the batch and cancels every instruction with one status event each", async () => {
    const { batchId, approvalId } = await submitted(["1500000.00", "1.00", "2.00"]);
    expect((await decide("approve", approvalId, { json: { approver: "alice" } })).status).toBe(200);
    const res = await decide("reject", approvalId, { json: { approver: "carol", reason: "wrong supplier" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ state: "rejected", approved_count: 1 });
    expect(await batchStatus(batchId)).toBe("rejected");

    const ins = (await (
      await h.call("GET", `/payments/batches/${batchId}/instructions`, { client: "fullB", company: IDS.companyA })
    ).json()) as { results: { status: string }[] };
    expect(ins.results.map((r) => r.status)).toEqual(["cancelled", "cancelled", "cancelled"]);
    const events = (await (
      await h.call("GET", `/payments/status-events?batch_id=${batchId}`, { client: "fullB", company: IDS.companyA })
    ).json()) as {
      count: number;
      results: { status: string; batch_id: string; occurred_at: string }[];
    };
    expect(events.count).toBe(3);
    expect(events.results.every((e) => e.status === "cancelled" && e.batch_id === batchId)).toBe(true);
    const cancelledFilter = (await (
      await h.call("GET", `/payments/status-events?status=cancelled&batch_id=${batchId}`, {
        client: "fullB",
        company: IDS.companyA,
      })
    ).json()) as { count: number };
    expect(cancelledFilter.count).toBe(3);
    const outbox = await queryRows<{ n: number }>(
      h.database.db,
      sql`select count(*)::int as n from webhook_events where type = 'payment.status.updated' and
        payload->'data'->>'batch_id' = ${batchId}`,
    );
    expect(outbox[0]?.n).toBe(3);

    expect((await decide("approve", approvalId, { json: { approver: "dave" } })).status).toBe(409);
    const reRejected = await decide("reject", approvalId, { json: { approver: "erin" } });
    expect(await reRejected.json()).toMatchObject({
      details: { state: "rejected", allowed: ["pending", "partially_approved"] },
    });
  });

  it("bad inputs: ids, bodies, content type, idempotency key, scope and isolation", async () => {
    const { approvalId } = await submitted(["5.00"]);
    expect((await decide("approve", "not-a-uuid")).status).toBe(400);
    expect((await decide("approve", crypto.randomUUID())).status).toBe(404);
    expect((await decide("approve", approvalId, { client: "otherB" })).status).toBe(404);
    expect((await decide("approve", approvalId, { company: IDS.companyB })).status).toBe(404);
    const unknownField = await decide("approve", approvalId, { json: { approver: "x", comment: "y" } });
    expect(unknownField.status).toBe(400);
    expect(
      ((await unknownField.json()) as { details: { errors: Record<string, string[]> } }).details.errors,
    ).toHaveProperty("comment");
    const emptyApprover = await decide("approve", approvalId, { json: { approver: "  " } });
    expect(emptyApprover.status).toBe(400);
    const longReason = await decide("reject", approvalId, { json: { reason: "r".repeat(501) } });
    expect(longReason.status).toBe(400);
    const text = await h.call("POST", `/approvals/${approvalId}/approve`, {
      client: "fullB",
      idem: true,
      headers: { "content-type": "text/plain", "content-length": "2" },
      body: "ok",
    });
    expect(text.status).toBe(415);
    expect((await h.call("POST", `/approvals/${approvalId}/approve`, { client: "fullB" })).status).toBe(400);
    expect(
      (
        await h.call("POST", `/approvals/${approvalId}/approve`, {
          client: "fullB",
          scope: "read:payments write:payments",
          idem: true,
        })
      ).status,
    ).toBe(403);
    expect((await h.call("GET", `/approvals/${approvalId}/approve`, { client: "fullB" })).status).toBe(405);
    // Nothing above counted.
    const still = (await (await h.call("GET", `/approvals/${approvalId}`, { client: "fullB" })).json()) as {
      state: string;
      approved_count: number;
    };
    expect(still).toMatchObject({ state: "pending", approved_count: 0 });
    // An empty JSON body is the default decision.
    const ok = await decide("approve", approvalId, { json: {} });
    expect(ok.status).toBe(200);
  });
});
