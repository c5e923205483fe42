/**
 * The simulated bank's steps with exact figures: batches are inserted straight into the database (no API round
 * trips) on an account of their own, and every run has a fixed clock on a date of its own, so each test knows the
 * balances, timestamps and rows it must find: the pace of each speed, the verdict's byte thresholds, when a taken
 * batch is due (pace or the requested execution date at the company's midnight), the booked transactions and their
 * fields, the interim balances (the day's own figure first, else the newest closing before the day) and intraday
 * point, the outbox events, the batch outcome, the proposals, the day end and the run's limits. One PGlite; tests
 * run in any order (each leaves no batch due behind it).
 */
import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { queryRows } from "../db/client";
import * as s from "../db/schema";
import { CLIENTS, IDS, createHarness, type Harness } from "../test/harness";
import { BANK_PACE, REJECTION_REASONS, bankDueAt, bankVerdict, closeEndedDays, runBankOnce } from "./bank-simulator";

let h: Harness;
const manual = { bankSpeed: "manual" as const };
const fast = { bankSpeed: "fast" as const };

beforeAll(async () => {
  h = await createHarness({ bankSpeed: "manual" });
});
afterAll(() => h.close());
// No test leaves a batch due for another one's run.
afterEach(async () => {
  await h.database.db
    .update(s.paymentBatches)
    .set({ status: "failed", bankNextStepAt: null })
    .where(inArray(s.paymentBatches.status, ["approved", "processing"]));
});

const iso = (v: string | null | undefined) => (v ? new Date(v).toISOString() : v);
const at = (stamp: string) => () => new Date(stamp);
let seq = 0;

/** A fresh active NOK account of company A (Norway), with the given balance snapshots. */
async function account(snapshots: { type: string; date: string; balance: string }[] = []): Promise<string> {
  const id = crypto.randomUUID();
  await h.database.db.insert(s.accounts).values({
    id,
    tenantId: IDS.tenant,
    companyId: IDS.companyA,
    bankId: "DNBANOKK",
    externalRef: `NO93860111${String(++seq).padStart(5, "0")}`,
    name: `Steps ${seq}`,
    currency: "NOK",
    bankName: "DNB",
  });
  if (snapshots.length)
    await h.database.db.insert(s.balanceSnapshots).values(
      snapshots.map((b) => ({
        id: crypto.randomUUID(),
        tenantId: IDS.tenant,
        companyId: IDS.companyA,
        accountId: id,
        balanceType: b.type,
        asOfDate: b.date,
        balance: b.balance,
        currency: "NOK",
        source: "camt053",
      })),
    );
  return id;
}

/** An end-to-end id whose SHA-256 starts with a byte `pick` accepts (the verdict's deterministic part). */
function e2eWithFirstByte(pick: (b: number) => boolean, tag: string): string {
  for (let i = 0; ; i++) {
    const id = `STEP-${tag}-${i}`;
    if (pick(createHash("sha256").update(id, "utf8").digest()[0] ?? 255)) return id;
  }
}
const settling = (tag: string) => e2eWithFirstByte((b) => b >= 8, tag);

interface InsSpec {
  amount: string;
  name?: string;
  e2e?: string;
  remittance?: string;
}

/** Inserts an approved batch of company A (pending instructions) and returns its id and instruction ids. */
async function approvedBatch(opts: {
  account?: string;
  currency?: string;
  instructions: InsSpec[];
  requestedExecutionDate?: string;
  bankNextStepAt?: string | null;
}) {
  const db = h.database.db;
  const id = crypto.randomUUID();
  const currency = opts.currency ?? "NOK";
  await db.insert(s.paymentBatches).values({
    id,
    tenantId: IDS.tenant,
    companyId: IDS.companyA,
    createdByClientId: CLIENTS.fullB.id,
    initiator: "maker@example.com",
    currency,
    status: "approved",
    totalAmount: "0",
    instructionCount: opts.instructions.length,
    requestedExecutionDate: opts.requestedExecutionDate ?? null,
    debtorAccountId: opts.account ?? null,
    bankNextStepAt: opts.bankNextStepAt === undefined ? null : opts.bankNextStepAt,
  });
  const rows = opts.instructions.map((x, position) => ({
    id: crypto.randomUUID(),
    batchId: id,
    tenantId: IDS.tenant,
    companyId: IDS.companyA,
    position,
    amount: x.amount,
    currency,
    creditorName: x.name ?? `Creditor ${position} AS`,
    creditorIban: "NO9386011117947",
    endToEndId: x.e2e ?? settling(`${id.slice(0, 8)}-${position}`),
    remittanceText: x.remittance ?? null,
    status: "pending",
  }));
  await db.insert(s.paymentInstructions).values(rows);
  return { id, instructions: rows };
}

const batchRow = async (id: string) =>
  (await h.database.db.select().from(s.paymentBatches).where(eq(s.paymentBatches.id, id)))[0];
const instructionRows = (batchId: string) =>
  h.database.db
    .select()
    .from(s.paymentInstructions)
    .where(eq(s.paymentInstructions.batchId, batchId))
    .orderBy(asc(s.paymentInstructions.position));
const eventRows = (batchId: string) =>
  h.database.db
    .select()
    .from(s.paymentStatusEvents)
    .where(eq(s.paymentStatusEvents.batchId, batchId))
    .orderBy(asc(s.paymentStatusEvents.occurredAt), asc(s.paymentStatusEvents.status));
const balances = (accountId: string) =>
  queryRows<{ balance_type: string; as_of_date: string; balance: string; currency: string; source: string }>(
    h.database.db,
    sql`select balance_type, as_of_date::text as as_of_date, balance::text as balance, currency, source
        from balance_snapshots where account_id = ${accountId} order by as_of_date, balance_type`,
  );
const points = (accountId: string) =>
  queryRows<{ timestamp: string; balance: string; currency: string; balance_type: string }>(
    h.database.db,
    sql`select timestamp, balance::text as balance, currency, balance_type from intraday_points
        where account_id = ${accountId} order by timestamp`,
  );

describe("pace and verdict", () => {
  it("each speed's delays and tick, and when a step is due", () => {
    expect(BANK_PACE).toEqual({
      instant: { take: 0, settle: 0, tickMs: 250 },
      fast: { take: 2_000, settle: 5_000, tickMs: 1_000 },
      realistic: { take: 60_000, settle: 300_000, tickMs: 15_000 },
      manual: { take: 0, settle: 0, tickMs: null },
    });
    const from = new Date("2031-01-15T10:00:00.000Z");
    expect(bankDueAt("fast", "take", from).toISOString()).toBe("2031-01-15T10:00:02.000Z");
    expect(bankDueAt("fast", "settle", from).toISOString()).toBe("2031-01-15T10:00:05.000Z");
    expect(bankDueAt("realistic", "settle", from).toISOString()).toBe("2031-01-15T10:05:00.000Z");
    expect(bankDueAt("manual", "take", from).toISOString()).toBe("2031-01-15T10:00:00.000Z");
  });

  it("the first hash byte decides: below 5 AC04, 5 to 7 AM04, from 8 settled; no account AC02 before all", () => {
    const ins = (e2e: string, creditorName = "Supplier AS") => ({ endToEndId: e2e, creditorName });
    const byte = (b: number) => e2eWithFirstByte((x) => x === b, `byte-${b}`);
    expect(bankVerdict(ins(byte(4)), true)).toEqual({ status: "rejected", reason: "AC04" });
    expect(bankVerdict(ins(byte(5)), true)).toEqual({ status: "rejected", reason: "AM04" });
    expect(bankVerdict(ins(byte(7)), true)).toEqual({ status: "rejected", reason: "AM04" });
    expect(bankVerdict(ins(byte(8)), true)).toEqual({ status: "settled" });
    expect(bankVerdict(ins(byte(8), "Do ReJeCt this"), true)).toEqual({ status: "rejected", reason: "AC04" });
    expect(bankVerdict(ins(byte(8), "Do ReJeCt this"), false)).toEqual({ status: "rejected", reason: "AC02" });
    expect(bankVerdict(ins(byte(8)), false)).toEqual({ status: "rejected", reason: "AC02" });
    expect(REJECTION_REASONS).toEqual({
      AC02: "invalid debtor account (no account of the batch currency)",
      AC04: "closed account",
      AM04: "insufficient funds",
    });
  });
});

describe("take", () => {
  it("accepts every pending instruction and makes the batch due after the settle delay, not a moment before", async () => {
    const acct = await account();
    const { id, instructions } = await approvedBatch({
      account: acct,
      instructions: [{ amount: "1.00" }, { amount: "2.00" }],
    });
    const t0 = "2031-02-03T08:00:00.000Z";
    expect((await runBankOnce(h.database.db, fast, { now: at(t0), maxSteps: 1 })).steps).toEqual([
      { batchId: id, step: "take", status: "processing" },
    ]);
    const batch = await batchRow(id);
    expect(batch?.status).toBe("processing");
    expect(iso(batch?.bankNextStepAt)).toBe("2031-02-03T08:00:05.000Z");
    expect(iso(batch?.updatedAt)).toBe(t0);
    expect((await instructionRows(id)).map((r) => r.status)).toEqual(["accepted", "accepted"]);
    const events = await eventRows(id);
    expect(events.map((e) => [e.instructionId, e.status, iso(e.occurredAt)])).toEqual(
      expect.arrayContaining(instructions.map((i) => [i.id, "accepted", t0])),
    );
    expect(events).toHaveLength(2);
    // Due at 08:00:05 exactly: not at 08:00:04.999, at 08:00:05.000.
    expect((await runBankOnce(h.database.db, fast, { now: at("2031-02-03T08:00:04.999Z") })).steps).toEqual([]);
    expect((await runBankOnce(h.database.db, fast, { now: at("2031-02-03T08:00:05.000Z") })).steps).toEqual([
      { batchId: id, step: "settle", status: "completed" },
    ]);
    expect((await batchRow(id))?.bankNextStepAt).toBeNull();
  });

  it("a requested execution date holds the batch until that date begins in the company's country", async () => {
    const acct = await account();
    // 2031-03-10 begins in Norway at 2031-03-09T23:00Z (CET).
    const later = await approvedBatch({
      account: acct,
      instructions: [{ amount: "3.00" }],
      requestedExecutionDate: "2031-03-10",
    });
    const past = await approvedBatch({
      account: acct,
      instructions: [{ amount: "4.00" }],
      requestedExecutionDate: "2031-03-01",
    });
    const t0 = "2031-03-08T12:00:00.000Z";
    const run = await runBankOnce(h.database.db, fast, { now: at(t0) });
    expect(run.steps.map((x) => [x.batchId, x.step]).sort()).toEqual(
      [
        [later.id, "take"],
        [past.id, "take"],
      ].sort(),
    );
    expect(iso((await batchRow(later.id))?.bankNextStepAt)).toBe("2031-03-09T23:00:00.000Z");
    // A date already begun: the settle delay only.
    expect(iso((await batchRow(past.id))?.bankNextStepAt)).toBe("2031-03-08T12:00:05.000Z");
    expect((await runBankOnce(h.database.db, fast, { now: at("2031-03-09T22:59:59.999Z") })).steps).toEqual([
      { batchId: past.id, step: "settle", status: "completed" },
    ]);
    expect((await runBankOnce(h.database.db, fast, { now: at("2031-03-09T23:00:00.000Z") })).steps).toEqual([
      { batchId: later.id, step: "settle", status: "completed" },
    ]);
  });
});

describe("settle", () => {
  it("books each settled instruction, moves the day's balances, draws a point, emits events, proposes matches", async () => {
    const day = "2031-04-15";
    const acct = await account([
      { type: "closing_booked", date: "2031-04-10", balance: "1000.00" },
      { type: "closing_booked", date: "2031-04-14", balance: "500.00" },
      { type: "closing_available", date: "2031-04-14", balance: "400.00" },
      // A statement's closing for the day itself is not the day's starting point.
      { type: "closing_booked", date: day, balance: "999.00" },
    ]);
    const { id, instructions } = await approvedBatch({
      account: acct,
      requestedExecutionDate: day,
      instructions: [
        { amount: "10.10", name: "Alpha Supplies AS" },
        { amount: "20.20", name: "Beta Parts AS", remittance: "Invoice 4711-2031" },
        { amount: "7.00", name: "Please REJECT me" },
        { amount: "0.05", name: "Gamma Tools AS" },
      ],
    });
    // Take and settle at one instant: the settle step is 1 ms later, so its events follow the take's.
    const t0 = `${day}T08:00:00.000Z`;
    const t1 = `${day}T08:00:00.001Z`;
    const run = await runBankOnce(h.database.db, manual, { now: at(t0) });
    expect(run.steps).toEqual([
      { batchId: id, step: "take", status: "processing" },
      { batchId: id, step: "settle", status: "partially_completed" },
    ]);

    const batch = await batchRow(id);
    expect(batch).toMatchObject({ status: "partially_completed", bankNextStepAt: null });
    expect(iso(batch?.updatedAt)).toBe(t1);

    const rows = await instructionRows(id);
    expect(rows.map((r) => r.status)).toEqual(["settled", "settled", "rejected", "settled"]);
    const txs = await h.database.db
      .select()
      .from(s.transactions)
      .where(
        inArray(
          s.transactions.dedupeKey,
          instructions.map((i) => `payment-instruction:${i.id}`),
        ),
      );
    expect(txs).toHaveLength(3);
    for (const [n, ins] of instructions.entries()) {
      const t = txs.find((x) => x.dedupeKey === `payment-instruction:${ins.id}`);
      if (n === 2) {
        expect(t).toBeUndefined();
        expect(rows[n]?.transactionId).toBeNull();
        continue;
      }
      expect(rows[n]?.transactionId).toBe(t?.id);
      expect({ ...t, bookedAt: iso(t?.bookedAt), valueAt: iso(t?.valueAt) }).toMatchObject({
        tenantId: IDS.tenant,
        companyId: IDS.companyA,
        accountId: acct,
        amount: ins.amount,
        currency: "NOK",
        direction: "debit",
        bookedDate: day,
        bookedAt: t1,
        valueDate: day,
        valueAt: t1,
        counterpartyName: ins.creditorName,
        remittance: ins.remittanceText ?? ins.endToEndId,
        endToEndId: ins.endToEndId,
        source: "bank-simulator",
      });
    }

    // Status events: accepted at the take, the outcome 1 ms later, the rejection with its reason.
    const events = await eventRows(id);
    expect(events).toHaveLength(8);
    for (const [n, ins] of instructions.entries()) {
      const mine = events.filter((e) => e.instructionId === ins.id);
      expect(mine.map((e) => [e.status, iso(e.occurredAt), e.reason])).toEqual([
        ["accepted", t0, null],
        n === 2 ? ["rejected", t1, "AC04"] : ["settled", t1, null],
      ]);
    }

    // Balances: the newest closing before the day (500.00, not the day's own 999.00) less 30.35 booked.
    expect(await balances(acct)).toEqual(
      expect.arrayContaining([
        { balance_type: "interim_booked", as_of_date: day, balance: "469.65", currency: "NOK", source: "api" },
        { balance_type: "interim_available", as_of_date: day, balance: "369.65", currency: "NOK", source: "api" },
      ]),
    );
    expect(await balances(acct)).toHaveLength(6);
    expect((await points(acct)).map((p) => ({ ...p, timestamp: iso(p.timestamp) }))).toEqual([
      { timestamp: t1, balance: "469.65", currency: "NOK", balance_type: "interim_booked" },
    ]);

    // Outbox: one transaction.created per booking, carrying the transaction.
    const created = await queryRows<{ id: string; company_id: string }>(
      h.database.db,
      sql`select payload->'data'->>'id' as id, company_id from webhook_events where type = 'transaction.created'
          and payload->'data'->>'account_id' = ${acct}`,
    );
    expect(created.map((e) => e.id).sort()).toEqual(txs.map((t) => t.id).sort());
    expect(created.every((e) => e.company_id === IDS.companyA)).toBe(true);

    // The matcher proposed each booking against its instruction (same amount, id, date and name: 100).
    const matches = await h.database.db
      .select()
      .from(s.reconciliationMatches)
      .where(
        inArray(
          s.reconciliationMatches.transactionId,
          txs.map((t) => t.id),
        ),
      );
    expect(matches.map((m) => [m.transactionId, m.paymentInstructionId, m.state, m.score]).sort()).toEqual(
      txs.map((t) => [t.id, rows.find((r) => r.transactionId === t.id)?.id, "proposed", 100]).sort(),
    );

    // A second batch the same day starts from the day's interim figures.
    const second = await approvedBatch({ account: acct, instructions: [{ amount: "5.00" }] });
    await runBankOnce(h.database.db, manual, { now: at(`${day}T09:30:00.000Z`) });
    expect((await batchRow(second.id))?.status).toBe("completed");
    const after = await balances(acct);
    expect(after.filter((b) => b.as_of_date === day && b.balance_type.startsWith("interim"))).toEqual([
      { balance_type: "interim_available", as_of_date: day, balance: "364.65", currency: "NOK", source: "api" },
      { balance_type: "interim_booked", as_of_date: day, balance: "464.65", currency: "NOK", source: "api" },
    ]);
    expect((await points(acct)).map((p) => [iso(p.timestamp), p.balance])).toEqual([
      [t1, "469.65"],
      ["2031-04-15T09:30:00.001Z", "464.65"],
    ]);
  });

  it("an account without balances starts from zero and gets no available balance", async () => {
    const day = "2031-05-06";
    const acct = await account();
    const { id } = await approvedBatch({ account: acct, instructions: [{ amount: "12.34" }, { amount: "0.66" }] });
    await runBankOnce(h.database.db, manual, { now: at(`${day}T10:00:00.000Z`) });
    expect((await batchRow(id))?.status).toBe("completed");
    expect(await balances(acct)).toEqual([
      { balance_type: "interim_booked", as_of_date: day, balance: "-13", currency: "NOK", source: "api" },
    ]);
  });

  it("exactly one insert chunk (1,000 settling instructions) books each once, with no empty second insert", async () => {
    const day = "2031-05-07";
    const acct = await account();
    const { id } = await approvedBatch({
      account: acct,
      instructions: Array.from({ length: 1000 }, () => ({ amount: "1.00" })),
    });
    await runBankOnce(h.database.db, manual, { now: at(`${day}T10:00:00.000Z`) });
    expect((await batchRow(id))?.status).toBe("completed");
    const [booked] = await queryRows<{ n: number; distinct_tx: number }>(
      h.database.db,
      sql`select count(*)::int as n, count(distinct transaction_id)::int as distinct_tx from payment_instructions
          where batch_id = ${id} and status = 'settled' and transaction_id is not null`,
    );
    expect(booked).toEqual({ n: 1000, distinct_tx: 1000 });
    expect(await balances(acct)).toEqual([
      { balance_type: "interim_booked", as_of_date: day, balance: "-1000", currency: "NOK", source: "api" },
    ]);
  }, 60_000);

  it("nothing settling: the batch fails, and no transaction, balance or point is written", async () => {
    const acct = await account([{ type: "closing_booked", date: "2031-05-01", balance: "50.00" }]);
    const { id, instructions } = await approvedBatch({
      account: acct,
      instructions: [
        { amount: "1.00", name: "REJECT one" },
        { amount: "2.00", e2e: e2eWithFirstByte((b) => b >= 5 && b < 8, "am04") },
      ],
    });
    const run = await runBankOnce(h.database.db, manual, { now: at("2031-05-02T10:00:00.000Z") });
    expect(run.steps.map((x) => x.status)).toEqual(["processing", "failed"]);
    expect((await eventRows(id)).filter((e) => e.status === "rejected").map((e) => e.reason)).toEqual(
      expect.arrayContaining(["AC04", "AM04"]),
    );
    expect(
      await h.database.db
        .select()
        .from(s.transactions)
        .where(
          inArray(
            s.transactions.dedupeKey,
            instructions.map((i) => `payment-instruction:${i.id}`),
          ),
        ),
    ).toEqual([]);
    expect((await balances(acct)).map((b) => b.balance_type)).toEqual(["closing_booked"]);
    expect(await points(acct)).toEqual([]);
  });

  it("no account in the batch currency: every instruction AC02, the batch fails", async () => {
    const { id } = await approvedBatch({ currency: "JPY", instructions: [{ amount: "100" }, { amount: "200" }] });
    const run = await runBankOnce(h.database.db, manual, { now: at("2031-05-03T10:00:00.000Z") });
    expect(run.steps).toEqual([
      { batchId: id, step: "take", status: "processing" },
      { batchId: id, step: "settle", status: "failed" },
    ]);
    expect((await eventRows(id)).filter((e) => e.status === "rejected").map((e) => e.reason)).toEqual(["AC02", "AC02"]);
  });
});

describe("the run", () => {
  it("takes a batch never scheduled before one scheduled earlier, stops at maxSteps and when told to", async () => {
    const acct = await account();
    const scheduled = await approvedBatch({
      account: acct,
      instructions: [{ amount: "1.00" }],
      bankNextStepAt: "2031-06-01T00:00:00.000Z",
    });
    const unscheduled = await approvedBatch({ account: acct, instructions: [{ amount: "1.00" }] });
    const now = at("2031-06-02T10:00:00.000Z");
    expect((await runBankOnce(h.database.db, manual, { now, shouldStop: () => true })).steps).toEqual([]);
    expect((await batchRow(unscheduled.id))?.status).toBe("approved");
    expect((await runBankOnce(h.database.db, manual, { now, maxSteps: 1 })).steps).toEqual([
      { batchId: unscheduled.id, step: "take", status: "processing" },
    ]);
    let calls = 0;
    const stopAfterTwo = () => ++calls > 2;
    const run = await runBankOnce(h.database.db, manual, { now, shouldStop: stopAfterTwo });
    expect(run.steps).toHaveLength(2);
    expect(run.steps[0]).toEqual({ batchId: scheduled.id, step: "take", status: "processing" });
    // Without limits, a run goes on until nothing is due.
    const rest = await runBankOnce(h.database.db, manual, { now });
    expect(rest.steps.length).toBeGreaterThan(0);
    expect([(await batchRow(scheduled.id))?.status, (await batchRow(unscheduled.id))?.status]).toEqual([
      "completed",
      "completed",
    ]);
  });

  it("a batch scheduled later than the clock is left alone", async () => {
    const acct = await account();
    const { id } = await approvedBatch({
      account: acct,
      instructions: [{ amount: "1.00" }],
      bankNextStepAt: "2031-07-01T10:00:00.001Z",
    });
    expect((await runBankOnce(h.database.db, manual, { now: at("2031-07-01T10:00:00.000Z") })).steps).toEqual([]);
    expect((await batchRow(id))?.status).toBe("approved");
  });

  it("the first run of a date closes the interim balances of the days before it", async () => {
    const acct = await account([
      { type: "interim_booked", date: "2031-08-20", balance: "123.45" },
      { type: "interim_available", date: "2031-08-20", balance: "100.00" },
    ]);
    await runBankOnce(h.database.db, manual, { now: at("2031-08-21T06:00:00.000Z") });
    const rows = await balances(acct);
    expect(rows.map((b) => [b.balance_type, b.as_of_date, b.balance]).sort()).toEqual(
      [
        ["closing_available", "2031-08-20", "100.00"],
        ["closing_booked", "2031-08-20", "123.45"],
        ["interim_available", "2031-08-20", "100.00"],
        ["interim_booked", "2031-08-20", "123.45"],
      ].sort(),
    );
    // The day end answers how many closings it wrote: at least this account's one, then none.
    await account([{ type: "interim_booked", date: "2031-09-01", balance: "1.00" }]);
    expect(await closeEndedDays(h.database.db, "2031-09-02")).toBeGreaterThanOrEqual(1);
    expect(await closeEndedDays(h.database.db, "2031-09-02")).toBe(0);
    // The wall clock when no clock is given: nothing is due, and the day end of today ran.
    expect((await runBankOnce(h.database.db, manual)).steps).toEqual([]);
    const [closing] = await h.database.db
      .select()
      .from(s.balanceSnapshots)
      .where(and(eq(s.balanceSnapshots.accountId, acct), eq(s.balanceSnapshots.balanceType, "closing_booked")));
    expect(closing?.balance).toBe("123.45");
  });
});
