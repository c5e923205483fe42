import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "../db/client";
import { IDS, createHarness, daysAgo, type ClientKey, type Harness } from "../test/harness";
import { bankVerdict, closeEndedDays, runBankOnce } from "./bank-simulator";
import { bankWorker } from "../workers";

let h: Harness;
const manual = { bankSpeed: "manual" as const };

beforeAll(async () => {
  h = await createHarness({ bankSpeed: "manual" });
});
afterAll(async () => {
  await h.close();
});

type Ins = { amount: string; currency: string; creditor_name: string; creditor_iban: string; end_to_end_id: string };
let seq = 0;

/** `n` instructions; the ones at `rejectAt` carry "REJECT" in the creditor name. */
function instructions(n: number, currency: string, amount: (i: number) => string, rejectAt: number[] = []): Ins[] {
  const run = ++seq;
  return Array.from({ length: n }, (_, i) => ({
    amount: amount(i),
    currency,
    creditor_name: rejectAt.includes(i) ? `REJECT Supplier ${i}` : `Supplier ${i} AS`,
    creditor_iban: "SE4550000000058398257466",
    end_to_end_id: `LC-${run}-${i}`,
  }));
}

interface Form {
  client: ClientKey;
  /** Header on company-scoped calls (Form A may omit it). */
  header: string | undefined;
}

/** Form B envelope or Form A array → rows. */
function rowsOf<T>(body: unknown): T[] {
  return Array.isArray(body) ? (body as T[]) : (body as { results: T[] }).results;
}

async function getJson<T>(path: string, f: Form): Promise<T> {
  const res = await h.call("GET", path, { client: f.client, company: f.header });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** Create → submit → approvals (two approvers when needed) through the API; returns the batch id. */
async function approvedBatch(f: Form, company: string, currency: string, ins: Ins[], date?: string): Promise<string> {
  const created = await h.call("POST", "/payments/batches", {
    client: f.client,
    company: f.header,
    idem: true,
    json: { company_id: company, currency, instructions: ins, ...(date ? { requested_execution_date: date } : {}) },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const batchId = ((await created.json()) as { id: string }).id;
  expect(
    (await h.call("POST", `/payments/batches/${batchId}/submit`, { client: f.client, company: f.header, idem: true }))
      .status,
  ).toBe(202);
  const queue = rowsOf<{ id: string; object_id: string; required_count: number }>(
    await getJson("/approvals/pending?" + (f.client === "partnerA" ? "limit=1000" : "page_size=1000"), {
      client: f.client,
      header: undefined,
    }),
  );
  const req = queue.find((r) => r.object_id === batchId);
  if (!req) throw new Error("approval request not in the queue");
  for (let i = 0; i < req.required_count; i++) {
    const res = await h.call("POST", `/approvals/${req.id}/approve`, {
      client: f.client,
      idem: true,
      json: { approver: `approver-${i}` },
    });
    expect(res.status).toBe(200);
  }
  expect((await getJson<{ status: string }>(`/payments/batches/${batchId}`, f)).status).toBe("approved");
  return batchId;
}

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await queryRows<{ n: number }>(h.database.db, query);
  return Number(row?.n ?? 0);
}

const forms: { name: string; f: Form; company: string; currency: string; account: string }[] = [
  {
    name: "Form B",
    f: { client: "fullB", header: IDS.companyA },
    company: IDS.companyA,
    currency: "NOK",
    account: IDS.accountA1,
  },
  {
    name: "Form A",
    f: { client: "partnerA", header: undefined },
    company: IDS.companyB,
    currency: "SEK",
    account: IDS.accountB1,
  },
];

describe(
  "lifecycle: create → submit → two approvals → processing → settled and rejected → booked → proposed " +
    "matches → confirm and reject",
  () => {
    it.each(forms)("$name", async ({ f, company, currency, account }) => {
      const ins = instructions(30, currency, (i) => (i === 0 ? "100000.00" : `${i}.10`), [3, 7]);
      const expected = ins.map((i) =>
        bankVerdict({ endToEndId: i.end_to_end_id, creditorName: i.creditor_name }, true),
      );
      const settled = ins.filter((_, i) => expected[i]?.status === "settled");
      const settledTotal = settled.reduce((s, i) => s + Math.round(Number(i.amount) * 100), 0);
      // Today's booked balance so far: today's interim, else the latest closing of an ended day.
      const bookedToday = sql`select balance::text as balance, balance_type from balance_snapshots where account_id =
      ${account} and ((balance_type = 'interim_booked' and as_of_date = ${daysAgo(0)}) or (balance_type =
        'closing_booked' and as_of_date < ${daysAgo(0)})) order by as_of_date desc limit 1`;
      const closingToday = sql`select balance::text as balance from balance_snapshots where account_id =
      ${account} and balance_type = 'closing_booked' and as_of_date = ${daysAgo(0)}`;
      const [before] = await queryRows<{ balance: string }>(h.database.db, bookedToday);
      const closingBefore = await queryRows<{ balance: string }>(h.database.db, closingToday);

      const batchId = await approvedBatch(f, company, currency, ins);
      const r1 = await runBankOnce(h.database.db, manual, { maxSteps: 1 });
      expect(r1.steps).toEqual([{ batchId, step: "take", status: "processing" }]);
      expect((await getJson<{ status: string }>(`/payments/batches/${batchId}`, f)).status).toBe("processing");
      const accepted = rowsOf<{ status: string }>(
        await getJson(`/payments/batches/${batchId}/instructions?status=accepted`, f),
      );
      expect(accepted).toHaveLength(30);

      const r2 = await runBankOnce(h.database.db, manual);
      expect(r2.steps).toEqual([{ batchId, step: "settle", status: "partially_completed" }]);
      expect((await runBankOnce(h.database.db, manual)).steps).toEqual([]);

      // Instructions: the deterministic verdicts, REJECT names with AC04.
      const final = rowsOf<{ id: string; end_to_end_id: string; status: string }>(
        await getJson(`/payments/batches/${batchId}/instructions`, f),
      );
      expect(final.map((r) => r.status)).toEqual(expected.map((e) => e.status));
      expect(final[3]?.status).toBe("rejected");

      // Status events: accepted + one final event per instruction, nothing else; reasons on rejections.
      const events = rowsOf<{ instruction_id: string; status: string; reason: string | null; occurred_at: string }>(
        await getJson(
          `/payments/status-events?batch_id=${batchId}&${f.client === "partnerA" ? "limit=1000" : "page_size=1000"}`,
          f,
        ),
      );
      expect(events).toHaveLength(60);
      for (const row of final) {
        const mine = events.filter((e) => e.instruction_id === row.id);
        expect(mine.map((e) => e.status)).toEqual(["accepted", row.status]);
        expect((mine[0]?.occurred_at ?? "") < (mine[1]?.occurred_at ?? "")).toBe(true);
      }
      const rejectedEvent = events.find((e) => e.instruction_id === final[3]?.id && e.status === "rejected");
      expect(rejectedEvent?.reason).toBe("AC04");
      const rejectedOnly = rowsOf<{ status: string }>(
        await getJson(`/payments/status-events?batch_id=${batchId}&status=rejected`, f),
      );
      expect(rejectedOnly).toHaveLength(30 - settled.length);

      // Booked transactions: one debit per settled instruction, end-to-end id in remittance, on the company's account
      // of the currency.
      const txs = rowsOf<{
        amount: string;
        direction: string;
        remittance: string;
        counterparty_name: string;
        booked_date: string;
        account_id: string;
      }>(
        await getJson(
          `/transactions?from_date=${daysAgo(0)}&direction=debit&` +
            (f.client === "partnerA" ? "limit=1000" : "page_size=1000"),
          { client: f.client, header: company },
        ),
      ).filter((t) => t.remittance.startsWith(`LC-${seq}-`) || settled.some((s) => s.end_to_end_id === t.remittance));
      expect(txs).toHaveLength(settled.length);
      expect(
        txs.every((t) => t.direction === "debit" && t.account_id === account && t.booked_date === daysAgo(0)),
      ).toBe(true);
      expect(txs.map((t) => t.remittance).sort()).toEqual(settled.map((s) => s.end_to_end_id).sort());
      const linked = await count(
        sql`select count(*)::int as n from payment_instructions where batch_id = ${batchId} and transaction_id is not
        null`,
      );
      expect(linked).toBe(settled.length);

      // Outbox: one payment.status.updated per status event, one transaction.created per booking.
      expect(
        await count(
          sql`select count(*)::int as n from webhook_events where type = 'payment.status.updated' and
          payload->'data'->>'batch_id' = ${batchId}`,
        ),
      ).toBe(60);
      expect(
        await count(
          sql`select count(*)::int as n from webhook_events e join transactions t on t.id::text =
          e.payload->'data'->>'id' where e.type = 'transaction.created' and t.dedupe_key in (select
            'payment-instruction:' || id from payment_instructions where batch_id = ${batchId})`,
        ),
      ).toBe(settled.length);

      // Balances: today's interim_booked = today's booked balance before − settled total; no closing is written for
      // the day in progress (one written by a day end another test ran with a later clock stays as it was); an intraday
      // point with the same balance (up to today: another test may have booked on a future execution date).
      const [after] = await queryRows<{ balance: string; balance_type: string }>(h.database.db, bookedToday);
      expect(after?.balance_type).toBe("interim_booked");
      expect(Math.round(Number(before?.balance) * 100) - Math.round(Number(after?.balance) * 100)).toBe(settledTotal);
      expect(await queryRows(h.database.db, closingToday)).toEqual(closingBefore);
      const [point] = await queryRows<{ balance: string }>(
        h.database.db,
        sql`select balance::text as balance from intraday_points where account_id = ${account} and timestamp <
        ${daysAgo(-1)}::date order by timestamp desc limit 1`,
      );
      expect(Number(point?.balance)).toBe(Number(after?.balance));

      // Proposed matches (domain/matching.ts): each settled instruction has a proposal on its booking; confirm one,
      // reject another.
      const settledRows = final.filter((r) => r.status === "settled");
      const proposals: {
        id: string;
        state: string;
        payment_instruction_id: string;
        transaction_id: string;
        score: number;
      }[] = [];
      for (const row of settledRows.slice(0, 2)) {
        const matches = rowsOf<{
          id: string;
          state: string;
          payment_instruction_id: string;
          transaction_id: string;
          score: number;
        }>(
          await getJson(`/reconciliation/matches?payment_instruction_id=${row.id}&state=proposed`, {
            client: f.client,
            header: company,
          }),
        );
        expect(matches.length, `proposal for ${row.end_to_end_id}`).toBeGreaterThan(0);
        const best = [...matches].sort((a, b) => b.score - a.score)[0];
        if (best) proposals.push(best);
      }
      const [toConfirm, toReject] = proposals;
      if (!toConfirm || !toReject) throw new Error("expected two proposals");
      const decide = (id: string, kind: "confirm" | "reject", idem: string | true) =>
        h.call("POST", `/reconciliation/matches/${id}/${kind}`, { client: f.client, company, idem, json: {} });
      const confirmKey = crypto.randomUUID();
      const confirmed = await decide(toConfirm.id, "confirm", confirmKey);
      expect(confirmed.status).toBe(200);
      expect(await confirmed.json()).toMatchObject({ id: toConfirm.id, state: "confirmed" });
      const replayed = await decide(toConfirm.id, "confirm", confirmKey);
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      expect((await decide(toConfirm.id, "confirm", true)).status).toBe(409);
      const rejected = await decide(toReject.id, "reject", true);
      expect(rejected.status).toBe(200);
      expect(await rejected.json()).toMatchObject({ id: toReject.id, state: "rejected" });
      expect((await decide(toReject.id, "confirm", true)).status).toBe(409);
    });
  },
);

describe("bank simulator outcomes", () => {
  const f: Form = { client: "fullB", header: IDS.companyA };

  it("a batch with every instruction settling is completed", async () => {
    const ins = instructions(40, "NOK", (i) => `${i + 1}.00`).filter(
      (i) => bankVerdict({ endToEndId: i.end_to_end_id, creditorName: i.creditor_name }, true).status === "settled",
    );
    const batchId = await approvedBatch(f, IDS.companyA, "NOK", ins);
    expect((await runBankOnce(h.database.db, manual)).steps.map((s) => s.status)).toEqual(["processing", "completed"]);
    expect((await getJson<{ status: string }>(`/payments/batches/${batchId}`, f)).status).toBe("completed");
  });

  it("no account of the batch currency: every instruction rejected (AC02), batch failed, nothing booked", async () => {
    const txBefore = await count(sql`select count(*)::int as n from transactions`);
    const batchId = await approvedBatch(
      f,
      IDS.companyA,
      "DKK",
      instructions(5, "DKK", () => "10.00"),
    );
    const run = await runBankOnce(h.database.db, manual);
    expect(run.steps.map((s) => s.status)).toEqual(["processing", "failed"]);
    const events = rowsOf<{ status: string; reason: string | null }>(
      await getJson(`/payments/status-events?batch_id=${batchId}&status=rejected`, f),
    );
    expect(events.map((e) => e.reason)).toEqual(["AC02", "AC02", "AC02", "AC02", "AC02"]);
    expect(await count(sql`select count(*)::int as n from transactions`)).toBe(txBefore);
  });

  it("waits for the requested execution date before settling", async () => {
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const batchId = await approvedBatch(
      f,
      IDS.companyA,
      "NOK",
      instructions(2, "NOK", () => "5.00"),
      future,
    );
    expect((await runBankOnce(h.database.db, manual)).steps).toEqual([{ batchId, step: "take", status: "processing" }]);
    expect((await runBankOnce(h.database.db, manual)).steps).toEqual([]);
    const later = new Date(`${future}T09:00:00Z`);
    const run = await runBankOnce(h.database.db, manual, { now: () => later });
    expect(run.steps).toHaveLength(1);
    expect(run.steps[0]?.step).toBe("settle");
    const [tx] = await queryRows<{ booked_date: string }>(
      h.database.db,
      sql`select booked_date::text as booked_date from transactions where dedupe_key in (select
        'payment-instruction:' || id from payment_instructions where batch_id = ${batchId}) limit 1`,
    );
    expect(tx?.booked_date).toBe(future);
  });

  it("a step that fails before commit leaves nothing behind and is redone once", async () => {
    const ins = instructions(10, "NOK", () => "7.00");
    const batchId = await approvedBatch(f, IDS.companyA, "NOK", ins);
    await runBankOnce(h.database.db, manual, { maxSteps: 1 });
    const eventsBefore = await count(
      sql`select count(*)::int as n from payment_status_events where batch_id = ${batchId}`,
    );
    const outboxBefore = await count(sql`select count(*)::int as n from webhook_events`);
    const seen: { batchId: string; step: string }[] = [];
    await expect(
      runBankOnce(h.database.db, manual, {
        beforeCommit: (s) => {
          seen.push(s);
          throw new Error("simulated crash");
        },
      }),
    ).rejects.toThrow("simulated crash");
    // The hook names the batch and the step it interrupts (the test failpoints rely on both).
    expect(seen).toEqual([{ batchId, step: "settle" }]);
    expect((await getJson<{ status: string }>(`/payments/batches/${batchId}`, f)).status).toBe("processing");
    expect(await count(sql`select count(*)::int as n from payment_status_events where batch_id = ${batchId}`)).toBe(
      eventsBefore,
    );
    expect(await count(sql`select count(*)::int as n from webhook_events`)).toBe(outboxBefore);
    expect(
      await count(
        sql`select count(*)::int as n from transactions where dedupe_key in (select 'payment-instruction:' || id
          from payment_instructions where batch_id = ${batchId})`,
      ),
    ).toBe(0);

    await runBankOnce(h.database.db, manual);
    const settled = ins.filter(
      (i) => bankVerdict({ endToEndId: i.end_to_end_id, creditorName: i.creditor_name }, true).status === "settled",
    ).length;
    expect(
      await count(
        sql`select count(*)::int as n from transactions where dedupe_key in (select 'payment-instruction:' || id
          from payment_instructions where batch_id = ${batchId})`,
      ),
    ).toBe(settled);
    expect(await count(sql`select count(*)::int as n from payment_status_events where batch_id = ${batchId}`)).toBe(20);
  });

  it("the worker (instant) drives an approved batch to its end and stops at a safe point", async () => {
    // Instructions the bank settles (its rejection rule is deterministic), so the end state is known: completed.
    const ins = instructions(12, "NOK", () => "1.00")
      .filter(
        (i) => bankVerdict({ endToEndId: i.end_to_end_id, creditorName: i.creditor_name }, true).status === "settled",
      )
      .slice(0, 3);
    expect(ins).toHaveLength(3);
    const batchId = await approvedBatch(f, IDS.companyA, "NOK", ins);
    const worker = bankWorker({
      database: h.database,
      config: { ...(await import("../config")).resolveConfig({ bankSpeed: "instant" }) },
      logger: null,
    });
    try {
      const deadline = Date.now() + 10_000;
      let status = "";
      while (Date.now() < deadline) {
        status = (await getJson<{ status: string }>(`/payments/batches/${batchId}`, f)).status;
        if (!["approved", "processing"].includes(status)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe("completed");
    } finally {
      await worker.stop();
    }
    const manualWorker = bankWorker({
      database: h.database,
      config: (await import("../config")).resolveConfig({ bankSpeed: "manual" }),
      logger: null,
    });
    await manualWorker.stop();
  });

  it(
    "day end: an ended day's interim balances become its closings, a closing already there is kept, " + "idempotent",
    async () => {
      const db = h.database.db;
      const account = IDS.accountA1;
      const today = daysAgo(0);
      const snapshot = (type: string) =>
        queryRows<{ balance: string }>(
          db,
          sql`select balance::text as balance from balance_snapshots where account_id = ${account} and balance_type =
          ${type} and as_of_date = ${today}`,
        );
      // A known state for today: interim booked and available, no closing booked, a statement's closing available.
      await db.execute(
        sql`delete from balance_snapshots where account_id = ${account} and as_of_date = ${today} and balance_type in
        ('closing_booked', 'interim_booked', 'interim_available', 'closing_available')`,
      );
      await db.execute(sql`insert into balance_snapshots (id, tenant_id, company_id, account_id, balance_type,
      as_of_date, balance, currency, source)
      select gen_random_uuid(), tenant_id, company_id, id, t.type, ${today}::date, t.balance::numeric, currency, 'api'
      from accounts, (values ('interim_booked', '1000.10'), ('interim_available', '900.20'), ('closing_available',
        '777.00')) as t(type, balance)
      where id = ${account}`);

      // Today has not ended: nothing closes.
      await closeEndedDays(db, today);
      expect(await snapshot("closing_booked")).toEqual([]);
      // Once it has: the interim booked becomes the closing booked; the statement's closing available stays.
      expect(await closeEndedDays(db, daysAgo(-1))).toBeGreaterThanOrEqual(1);
      expect(await snapshot("closing_booked")).toEqual([{ balance: "1000.10" }]);
      expect(await snapshot("closing_available")).toEqual([{ balance: "777.00" }]);
      expect(await closeEndedDays(db, daysAgo(-1))).toBe(0);
    },
  );

  it("the rejection rule is deterministic and rare", () => {
    const verdicts = Array.from({ length: 2000 }, (_, i) =>
      bankVerdict({ endToEndId: `E2E-${i}`, creditorName: "Supplier AS" }, true),
    );
    const rejected = verdicts.filter((v) => v.status === "rejected").length;
    expect(rejected).toBeGreaterThan(20);
    expect(rejected).toBeLessThan(120);
    expect(bankVerdict({ endToEndId: "E2E-1", creditorName: "x" }, true)).toEqual(
      bankVerdict({ endToEndId: "E2E-1", creditorName: "x" }, true),
    );
    expect(bankVerdict({ endToEndId: "E2E-1", creditorName: "Please reject me" }, true)).toEqual({
      status: "rejected",
      reason: "AC04",
    });
    expect(bankVerdict({ endToEndId: "E2E-1", creditorName: "x" }, false)).toEqual({
      status: "rejected",
      reason: "AC02",
    });
  });
});
