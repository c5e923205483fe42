/**
 * The reconciliation extensions for what is left unmatched:
 * `GET /reconciliation/unmatched` (settled instructions and debit transactions
 * without a confirmed match, dated, filtered, sorted, scoped) and
 * `POST /reconciliation/matches` (a confirmed match made by hand): the happy
 * path and its audit fields and event, already matched (409), ids of another
 * company or tenant (404), bad ids and bodies (400 naming the field), the
 * idempotent replay, a proposal of the same pair confirmed in place, and the
 * advertisement in the OpenAPI document.
 */
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import * as s from "../../db/schema";
import { proposeMatchesForTransactions } from "../../domain/matching";
import { CLIENTS, IDS, daysAgo, type ClientKey, insertCompletedBatch, noonTransaction } from "../../test/harness";
import { harnessForFile } from "../../test/file-harness";
import type { UnmatchedItem } from "@treasury/contract/unmatched";

const h = harnessForFile({ bankSpeed: "instant" });

type Json = Record<string, unknown>;
type Item = UnmatchedItem;
type Envelope<T> = { count: number; results: T[] };

const uid = () => crypto.randomUUID();
let seq = 0;

/**
 * A settled instruction (settled `settledDaysAgo` days ago, through a status event) and, unless `tx` is null, a
 * debit booked on `account` `bookedDaysAgo` days ago with `tx` overrides; the matcher is not run unless `propose`.
 */
async function pair(
  o: {
    amount?: string;
    name?: string;
    company?: string;
    account?: string;
    currency?: string;
    status?: string;
    settledDaysAgo?: number;
    bookedDaysAgo?: number;
    tx?: Partial<typeof s.transactions.$inferInsert> | null;
    propose?: boolean;
  } = {},
) {
  const db = h.database.db;
  const company = o.company ?? IDS.companyA;
  const currency = o.currency ?? "NOK";
  const amount = o.amount ?? "1500.00";
  const name = o.name ?? "Unmatched Supplier AS";
  const batchId = uid();
  const settled = daysAgo(o.settledDaysAgo ?? 1);
  await insertCompletedBatch(db, {
    id: batchId,
    companyId: company,
    currency,
    totalAmount: amount,
    requestedExecutionDate: settled,
    debtorAccountId: o.account ?? IDS.accountA1,
  });
  const instruction = {
    id: uid(),
    batchId,
    tenantId: IDS.tenant,
    companyId: company,
    position: 0,
    amount,
    currency,
    creditorName: name,
    creditorIban: "NO9386011117947",
    endToEndId: `UNM-${++seq}-${uid().slice(0, 6)}`,
    status: o.status ?? "settled",
  };
  await db.insert(s.paymentInstructions).values(instruction);
  if (instruction.status === "settled")
    await db.insert(s.paymentStatusEvents).values({
      id: uid(),
      tenantId: IDS.tenant,
      companyId: company,
      batchId,
      instructionId: instruction.id,
      status: "settled",
      occurredAt: `${settled}T10:00:00Z`,
    });
  let transaction: (typeof s.transactions.$inferInsert & { id: string }) | null = null;
  if (o.tx !== null) {
    const booked = daysAgo(o.bookedDaysAgo ?? o.settledDaysAgo ?? 1);
    transaction = noonTransaction(booked, {
      id: uid(),
      companyId: company,
      accountId: o.account ?? IDS.accountA1,
      amount,
      currency,
      direction: "debit",
      counterpartyName: name,
      remittance: "no reference given",
      endToEndId: null,
      ...o.tx,
    });
    await db.insert(s.transactions).values(transaction);
    if (o.propose) await db.transaction((t) => proposeMatchesForTransactions(t, [transaction?.id ?? ""]));
  }
  return { instruction, transaction, batchId };
}

async function unmatched(kind: string, query = "", opts: { client?: ClientKey; company?: string } = {}) {
  const res = await h.call("GET", `/reconciliation/unmatched?kind=${kind}&page_size=1000${query}`, {
    client: opts.client ?? "fullB",
    company: opts.company,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Envelope<Item>;
}

const ids = (e: Envelope<Item>) => e.results.map((r) => r.id);

function manual(body: unknown, opts: { client?: ClientKey; company?: string; idem?: string } = {}) {
  return h.write("POST", "/reconciliation/matches", {
    client: opts.client ?? "fullB",
    company: opts.company,
    json: body,
    idem: opts.idem ?? true,
  });
}

/**
 * The unmatched item a `pair`'s instruction is listed as (1,500.00 NOK on company A's account A1, to `name`, no
 * proposal waiting), with `item`'s fields (its kind, date and what else the test checks).
 */
const pairItem = (instruction: { id: string; endToEndId: string | null }, name: string, item: Partial<Item>) =>
  expect.objectContaining({
    id: instruction.id,
    account_id: IDS.accountA1,
    amount: "1500.00",
    currency: "NOK",
    counterparty_name: name,
    end_to_end_id: instruction.endToEndId,
    proposed_matches: 0,
    ...item,
  });

describe("GET /reconciliation/unmatched", () => {
  it("lists a settled instruction and a debit without a confirmed match, dated and with their account", async () => {
    const { instruction, transaction } = await pair({ settledDaysAgo: 12, bookedDaysAgo: 11, name: "Aged Vendor AS" });
    const ins = await unmatched("instruction", "&q=Aged%20Vendor");
    expect(ins.results).toEqual([
      pairItem(instruction, "Aged Vendor AS", {
        kind: "instruction",
        company_id: IDS.companyA,
        account_name: "Alpha NOK operating",
        date: daysAgo(12),
      }),
    ]);
    const txs = await unmatched("transaction", "&q=aged%20vendor");
    expect(txs.results).toEqual([
      expect.objectContaining({ kind: "transaction", id: transaction?.id, date: daysAgo(11), amount: "1500.00" }),
    ]);
    expect(txs.count).toBe(1);
  });

  it("lists a rejected instruction under kind=rejected with the bank's reason, never as a payment to match", async () => {
    const { instruction, batchId } = await pair({ status: "rejected", tx: null, name: "Closed Account AS" });
    await h.database.db.insert(s.paymentStatusEvents).values({
      id: uid(),
      tenantId: IDS.tenant,
      companyId: IDS.companyA,
      batchId,
      instructionId: instruction.id,
      status: "rejected",
      reason: "AC04",
      reasonText: "Closed account number",
      occurredAt: `${daysAgo(3)}T09:30:00Z`,
    });
    const rejected = await unmatched("rejected", "&q=Closed%20Account");
    expect(rejected.results).toEqual([
      pairItem(instruction, "Closed Account AS", {
        kind: "rejected",
        date: daysAgo(3),
        batch_id: batchId,
        status: "rejected",
        reason: "AC04",
        reason_text: "Closed account number",
      }),
    ]);
    expect(rejected.count).toBe(1);
    // Without a chosen debtor account: the account the bank would have debited (the first active one in NOK).
    await h.database.db.execute(sql`update payment_batches set debtor_account_id = null where id = ${batchId}::uuid`);
    expect((await unmatched("rejected", "&q=Closed%20Account")).results[0]).toMatchObject({
      account_id: IDS.accountA1,
      account_name: "Alpha NOK operating",
    });
    expect(ids(await unmatched("instruction", "&q=Closed%20Account"))).toEqual([]);
    // Settled and transaction items carry no reason at all.
    const settled = await pair({ name: "Reasonless AS" });
    const [item] = (await unmatched("instruction", "&q=Reasonless")).results;
    expect(item?.id).toBe(settled.instruction.id);
    expect(item).not.toHaveProperty("reason");
    // Scoped to another company, or another tenant's client: not there.
    expect(ids(await unmatched("rejected", "&q=Closed%20Account", { company: IDS.companyB }))).toEqual([]);
    expect(ids(await unmatched("rejected", "&q=Closed%20Account", { client: "otherB" }))).toEqual([]);
  });

  it("names the account the bank booked an instruction on when its batch chose none", async () => {
    const { instruction, transaction, batchId } = await pair({ name: "Booked Account AS", account: IDS.accountA1 });
    const db = h.database.db;
    await db.execute(sql`update payment_batches set debtor_account_id = null where id = ${batchId}::uuid`);
    let [item] = (await unmatched("instruction", "&q=Booked%20Account")).results;
    expect(item).toMatchObject({ id: instruction.id, account_id: null, account_name: null });
    await db.execute(
      sql`update payment_instructions set transaction_id = ${transaction?.id ?? ""}::uuid
          where id = ${instruction.id}::uuid`,
    );
    [item] = (await unmatched("instruction", "&q=Booked%20Account")).results;
    expect(item).toMatchObject({ account_id: IDS.accountA1, account_name: "Alpha NOK operating" });
  });

  it("filters by date, amount and search, sorts oldest first by default, and counts open proposals", async () => {
    const old = await pair({ settledDaysAgo: 40, amount: "10.00", name: "Sorter One" });
    const mid = await pair({ settledDaysAgo: 5, amount: "30.00", name: "Sorter Two" });
    const recent = await pair({ settledDaysAgo: 0, amount: "20.00", name: "Sorter Three", propose: true });
    const all = await unmatched("instruction", "&q=Sorter");
    expect(ids(all)).toEqual([old.instruction.id, mid.instruction.id, recent.instruction.id]);
    expect(all.results[2]?.proposed_matches).toBe(1);
    expect(ids(await unmatched("instruction", "&q=Sorter&sort=-date"))).toEqual([
      recent.instruction.id,
      mid.instruction.id,
      old.instruction.id,
    ]);
    expect(ids(await unmatched("instruction", "&q=Sorter&sort=-amount"))).toEqual([
      mid.instruction.id,
      recent.instruction.id,
      old.instruction.id,
    ]);
    expect(ids(await unmatched("instruction", `&q=Sorter&from_date=${daysAgo(7)}&to_date=${daysAgo(3)}`))).toEqual([
      mid.instruction.id,
    ]);
    expect(ids(await unmatched("transaction", "&q=Sorter&min_amount=15&max_amount=25"))).toEqual([
      recent.transaction?.id,
    ]);
    // The end-to-end id is searched too; LIKE's own characters are taken literally.
    expect(ids(await unmatched("instruction", `&q=${old.instruction.endToEndId}`))).toEqual([old.instruction.id]);
    expect((await unmatched("instruction", "&q=Sorter%25")).count).toBe(0);
  });

  it("leaves out credits, instructions not settled, and anything of a company outside the scope", async () => {
    const credit = await pair({ name: "Credit Side AS", tx: { direction: "credit" } });
    await pair({ name: "Accepted Side AS", status: "accepted", tx: null });
    const gamma = await pair({
      name: "Gamma Side ApS",
      company: IDS.companyC,
      account: IDS.accountC1,
      currency: "DKK",
    });
    expect(ids(await unmatched("transaction", "&q=Credit%20Side"))).toEqual([]);
    expect(ids(await unmatched("instruction", "&q=Credit%20Side"))).toEqual([credit.instruction.id]);
    expect(ids(await unmatched("instruction", "&q=Accepted%20Side"))).toEqual([]);
    // Company C is not linked to the Form B client; the Form A partner sees its whole tenant.
    expect(ids(await unmatched("instruction", "&q=Gamma%20Side"))).toEqual([]);
    expect(ids(await unmatched("transaction", "&q=Gamma%20Side", { client: "otherB" }))).toEqual([]);
    const res = await h.call("GET", "/reconciliation/unmatched?kind=transaction&q=Gamma%20Side", {
      client: "partnerA",
    });
    expect(((await res.json()) as Item[]).map((r) => r.id)).toEqual([gamma.transaction?.id]);
    // X-Company-ID narrows to one company.
    expect((await unmatched("instruction", "&q=Credit%20Side", { company: IDS.companyB })).count).toBe(0);
  });

  it("answers 400 naming the field for a bad kind, date, amount range or search", async () => {
    const cases: [string, string][] = [
      ["", "kind"],
      ["kind=both", "kind"],
      ["kind=instruction&from_date=2026-13-01", "from_date"],
      ["kind=instruction&min_amount=abc", "min_amount"],
      ["kind=instruction&min_amount=10&max_amount=5", "min_amount"],
      ["kind=instruction&sort=age", "sort"],
      [`kind=instruction&q=${"x".repeat(101)}`, "q"],
      ["kind=instruction&account_id=nope", "account_id"],
      ["kind=instruction&colour=red", "colour"],
    ];
    for (const [query, field] of cases) {
      const res = await h.call("GET", `/reconciliation/unmatched?${query}`, { client: "fullB" });
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { error: string; details: { errors?: Json } };
      expect(body.error).toBe("validation_error");
      expect(Object.keys(body.details.errors ?? {}), query).toContain(field);
    }
  });
});

describe("POST /reconciliation/matches", () => {
  it("creates a confirmed manual match attributed to the caller, and both sides leave the unmatched lists", async () => {
    const { instruction, transaction } = await pair({
      amount: "2000.00",
      name: "Manual Pair AS",
      tx: { amount: "1985.00", counterpartyName: "MANUAL PAIR" },
    });
    const res = await manual({
      instruction_id: instruction.id,
      transaction_id: transaction?.id,
      note: "Bank fee of 15.00 deducted",
      reviewer: "treasurer@example.com",
    });
    expect(res.status).toBe(201);
    const m = (await res.json()) as Json;
    expect(m).toMatchObject({
      payment_instruction_id: instruction.id,
      transaction_id: transaction?.id,
      state: "confirmed",
      origin: "manual",
      company_id: IDS.companyA,
      reviewer: "treasurer@example.com",
      reason: "Bank fee of 15.00 deducted",
    });
    expect(typeof m.decided_at).toBe("string");
    expect(m.score).toBeLessThan(100);
    const [row] = await queryRows<{ decided_by_client_id: string; origin: string }>(
      h.database.db,
      sql`select decided_by_client_id, origin from reconciliation_matches where id = ${m.id as string}::uuid`,
    );
    expect(row).toEqual({ decided_by_client_id: CLIENTS.fullB.id, origin: "manual" });
    const events = await queryRows<{ type: string }>(
      h.database.db,
      sql`select type from webhook_events where payload->'data'->>'id' = ${m.id as string}`,
    );
    expect(events.map((e) => e.type)).toEqual(["reconciliation.match.created"]);
    expect(ids(await unmatched("instruction", "&q=Manual%20Pair"))).toEqual([]);
    expect(ids(await unmatched("transaction", "&q=MANUAL%20PAIR"))).toEqual([]);
    const listed = await h.call("GET", `/reconciliation/matches?payment_instruction_id=${instruction.id}`, {
      client: "fullB",
    });
    expect(((await listed.json()) as Envelope<Json>).results).toEqual([expect.objectContaining({ id: m.id })]);
  });

  it("refuses an instruction or a transaction already confirmed in a match with 409", async () => {
    const a = await pair({ name: "Twice Matched AS" });
    const b = await pair({ name: "Twice Matched AS" });
    const first = await manual({ instruction_id: a.instruction.id, transaction_id: a.transaction?.id });
    expect(first.status).toBe(201);
    const firstId = ((await first.json()) as Json).id;
    const sameIns = await manual({ instruction_id: a.instruction.id, transaction_id: b.transaction?.id });
    expect(sameIns.status).toBe(409);
    expect(((await sameIns.json()) as { details: Json }).details).toMatchObject({
      reason: "instruction_already_matched",
      match_id: firstId,
    });
    const sameTx = await manual({ instruction_id: b.instruction.id, transaction_id: a.transaction?.id });
    expect(sameTx.status).toBe(409);
    expect(((await sameTx.json()) as { details: Json }).details).toMatchObject({
      reason: "transaction_already_matched",
    });
    // The other pair is still free to match.
    expect((await manual({ instruction_id: b.instruction.id, transaction_id: b.transaction?.id })).status).toBe(201);
  });

  it("answers 404 for ids of a company or tenant outside the caller's scope", async () => {
    const mine = await pair({ name: "Scope Mine AS" });
    const gamma = await pair({ company: IDS.companyC, account: IDS.accountC1, currency: "DKK" });
    const cases: [ClientKey, unknown, string][] = [
      ["fullB", { instruction_id: gamma.instruction.id, transaction_id: mine.transaction?.id }, "Payment instruction"],
      ["fullB", { instruction_id: mine.instruction.id, transaction_id: gamma.transaction?.id }, "Transaction"],
      ["otherB", { instruction_id: mine.instruction.id, transaction_id: mine.transaction?.id }, "Payment instruction"],
      ["fullB", { instruction_id: uid(), transaction_id: mine.transaction?.id }, "Payment instruction"],
    ];
    for (const [client, body, what] of cases) {
      const res = await manual(body, { client });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { message: string }).message).toContain(what);
    }
    // X-Company-ID of company B hides company A's instruction as well.
    const narrowed = await manual(
      { instruction_id: mine.instruction.id, transaction_id: mine.transaction?.id },
      { company: IDS.companyB },
    );
    expect(narrowed.status).toBe(404);
    expect(ids(await unmatched("instruction", "&q=Scope%20Mine"))).toEqual([mine.instruction.id]);
  });

  it("answers 400 naming the field for bad ids, a missing side, unknown fields, and a wrong counterpart", async () => {
    const p = await pair({ name: "Bad Input AS" });
    const credit = await pair({ name: "Bad Credit AS", tx: { direction: "credit" } });
    const beta = await pair({ company: IDS.companyB, account: IDS.accountB1, currency: "SEK" });
    const eur = await pair({ account: IDS.accountA2, currency: "EUR" });
    const cases: [unknown, string][] = [
      [{ instruction_id: "nope", transaction_id: p.transaction?.id }, "instruction_id"],
      [{ instruction_id: p.instruction.id, transaction_id: 42 }, "transaction_id"],
      [{ instruction_id: p.instruction.id }, "transaction_id"],
      [{ instruction_id: p.instruction.id, transaction_id: p.transaction?.id, note: "x".repeat(1001) }, "note"],
      [{ instruction_id: p.instruction.id, transaction_id: p.transaction?.id, state: "confirmed" }, "state"],
      [{ instruction_id: p.instruction.id, transaction_id: credit.transaction?.id }, "transaction_id"],
      [{ instruction_id: p.instruction.id, transaction_id: beta.transaction?.id }, "transaction_id"],
      [{ instruction_id: p.instruction.id, transaction_id: eur.transaction?.id }, "transaction_id"],
    ];
    for (const [body, field] of cases) {
      const res = await manual(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = (await res.json()) as { error: string; details: { errors?: Json } };
      expect(err.error).toBe("validation_error");
      expect(Object.keys(err.details.errors ?? {}), JSON.stringify(body)).toContain(field);
    }
    const noKey = await h.call("POST", "/reconciliation/matches", {
      client: "fullB",
      json: { instruction_id: p.instruction.id, transaction_id: p.transaction?.id },
    });
    expect(noKey.status).toBe(400);
    expect(ids(await unmatched("instruction", "&q=Bad%20Input"))).toEqual([p.instruction.id]);
  });

  it("refuses an instruction that has not been executed with 409 naming its state", async () => {
    const db = h.database.db;
    const p = await pair({ name: "Not Yet AS" });
    await db.execute(sql`update payment_instructions set status = 'pending' where id = ${p.instruction.id}::uuid`);
    const res = await manual({ instruction_id: p.instruction.id, transaction_id: p.transaction?.id });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { details: Json }).details).toMatchObject({ state: "pending" });
  });

  it("replays a retried request with the same Idempotency-Key, creating one match", async () => {
    const p = await pair({ name: "Replay Pair AS" });
    const body = { instruction_id: p.instruction.id, transaction_id: p.transaction?.id };
    const key = uid();
    const first = await manual(body, { idem: key });
    const again = await manual(body, { idem: key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    const rows = await queryRows<{ n: number }>(
      h.database.db,
      sql`select count(*)::int as n from reconciliation_matches where payment_instruction_id = ${p.instruction.id}::uuid`,
    );
    expect(rows[0]?.n).toBe(1);
    // The same key with another body is a conflict, not a second match.
    const other = await pair({ name: "Replay Other AS" });
    const clash = await manual(
      { instruction_id: other.instruction.id, transaction_id: other.transaction?.id },
      { idem: key },
    );
    expect(clash.status).toBe(409);
  });

  it("confirms the matcher's proposal of the same pair in place (same id, origin manual)", async () => {
    const p = await pair({ name: "Proposed Pair AS", tx: { endToEndId: null }, propose: true });
    const proposed = await h.call("GET", `/reconciliation/matches?transaction_id=${p.transaction?.id}`, {
      client: "fullB",
    });
    const [proposal] = ((await proposed.json()) as Envelope<Json>).results;
    expect(proposal).toMatchObject({ state: "proposed", origin: "matcher" });
    const res = await manual({ instruction_id: p.instruction.id, transaction_id: p.transaction?.id });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ id: proposal?.id, state: "confirmed", origin: "manual" });
  });

  it("is advertised in the OpenAPI document with the unmatched list", async () => {
    const doc = (await (await h.call("GET", "/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(Object.keys(doc.paths["/reconciliation/matches"] ?? {})).toEqual(expect.arrayContaining(["get", "post"]));
    expect(Object.keys(doc.paths["/reconciliation/unmatched"] ?? {})).toEqual(["get"]);
    expect(Object.keys(doc.components.schemas.ManualMatchCreate?.properties ?? {})).toEqual(
      expect.arrayContaining(["instruction_id", "transaction_id", "note"]),
    );
  });
});
