/**
 * Reconciliation (docs/treasury-api.md#reconciliation;
 * docs/architecture.md#states-and-transitions): proposals by the matcher (also straight from the simulated bank),
 * list with filters in both forms, confirm / reject with every illegal
 * transition, "one transaction is never confirmed against two instructions",
 * idempotent replays, audit fields and the outbox events.
 */
import { describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import * as s from "../../db/schema";
import { proposeMatchesForTransactions } from "../../domain/matching";
import { runBankOnce } from "../../domain/bank-simulator";
import {
  CLIENTS,
  IDS,
  daysAgo,
  type ClientKey,
  insertCompletedBatch,
  approvalIdOf,
  noonTransaction,
} from "../../test/harness";
import { harnessForFile } from "../../test/file-harness";

const h = harnessForFile({ bankSpeed: "instant" });

type Match = {
  id: string;
  payment_instruction_id: string;
  transaction_id: string;
  state: string;
  score: number;
  score_breakdown: Record<string, number>;
  company_id: string;
  reviewer?: string | null;
  reason?: string | null;
  decided_at?: string | null;
};
type Json = Record<string, unknown>;

let seq = 0;
const uid = () => crypto.randomUUID();

/**
 * Inserts a settled batch of instructions and, for each, a debit transaction as
 * the bank would book it (`tx` overrides per instruction), then runs the matcher.
 */
async function scenario(
  instructions: { amount: string; name: string; tx?: Partial<typeof s.transactions.$inferInsert> | null }[],
  company: string = IDS.companyA,
  account: string = IDS.accountA1,
  currency = "NOK",
) {
  const db = h.database.db;
  const batchId = uid();
  const date = daysAgo(1);
  await insertCompletedBatch(db, {
    id: batchId,
    companyId: company,
    currency,
    instructionCount: instructions.length,
    requestedExecutionDate: date,
  });
  const ins = instructions.map((x, i) => ({
    id: uid(),
    batchId,
    tenantId: IDS.tenant,
    companyId: company,
    position: i,
    amount: x.amount,
    currency,
    creditorName: x.name,
    creditorIban: "NO9386011117947",
    endToEndId: `REC-${++seq}-${i}`,
    status: "settled",
  }));
  await db.insert(s.paymentInstructions).values(ins);
  const txs = ins.flatMap((i, n) => {
    const o = instructions[n]?.tx;
    if (o === null) return [];
    return [
      noonTransaction(date, {
        id: uid(),
        companyId: company,
        accountId: account,
        amount: i.amount,
        currency,
        direction: "debit",
        counterpartyName: i.creditorName,
        remittance: i.endToEndId,
        endToEndId: i.endToEndId,
        ...o,
      }),
    ];
  });
  if (txs.length) await db.insert(s.transactions).values(txs);
  await db.transaction((tx) =>
    proposeMatchesForTransactions(
      tx,
      txs.map((t) => t.id),
    ),
  );
  return { batchId, ins, txs };
}

async function matchesFor(transactionId: string): Promise<Match[]> {
  const res = await h.call("GET", `/reconciliation/matches?transaction_id=${transactionId}`, { client: "partnerA" });
  expect(res.status).toBe(200);
  return (await res.json()) as Match[];
}

const decide = (
  kind: "confirm" | "reject",
  id: string,
  opts: { json?: unknown; client?: ClientKey; company?: string; idem?: string } = {},
) =>
  h.write("POST", `/reconciliation/matches/${id}/${kind}`, {
    client: opts.client ?? "fullB",
    company: opts.company,
    json: opts.json,
    idem: opts.idem ?? true,
  });

describe("the matcher", () => {
  it(
    "proposes one match per booked payment with score and breakdown, and emits " + "reconciliation.match.created",
    async () => {
      const { ins, txs } = await scenario([
        { amount: "1200.00", name: "Nordic Supply AS" },
        { amount: "99.90", name: "Fjordkraft AS", tx: { endToEndId: null } }, // reference only in the remittance
      ]);
      for (const [n, t] of txs.entries()) {
        const [m] = await matchesFor(t.id);
        expect(m).toMatchObject({
          payment_instruction_id: ins[n]?.id,
          transaction_id: t.id,
          state: "proposed",
          score: 100,
          company_id: IDS.companyA,
        });
        expect(m?.score_breakdown).toEqual({ amount: 100, date: 100, reference: 100, name: 100 });
      }
      const events = await queryRows<{ type: string; payload: { data: { transaction_id: string } } }>(
        h.database.db,
        sql`select type, payload from webhook_events where type = 'reconciliation.match.created' and
        payload->'data'->>'transaction_id' = ${txs[0]?.id ?? ""}`,
      );
      expect(events).toHaveLength(1);
    },
  );

  it("does not propose below the threshold, for credits, or twice for the same pair", async () => {
    const { txs } = await scenario([
      {
        amount: "5000.00",
        name: "Kontor AS",
        tx: { remittance: "unrelated", endToEndId: null, counterpartyName: "Someone Else", amount: "5100.00" },
      },
      { amount: "700.00", name: "Credit Co", tx: { direction: "credit" } },
    ]);
    expect(await matchesFor(txs[0]?.id ?? "")).toEqual([]);
    expect(await matchesFor(txs[1]?.id ?? "")).toEqual([]);
    const { txs: again } = await scenario([{ amount: "10.00", name: "Twice AS" }]);
    const id = again[0]?.id ?? "";
    await h.database.db.transaction((tx) => proposeMatchesForTransactions(tx, [id, id]));
    expect(await matchesFor(id)).toHaveLength(1);
  });

  it("an empty list proposes nothing; one full chunk of 1,000 ids (unknown ones ignored) is matched once", async () => {
    await h.database.db.transaction((tx) => proposeMatchesForTransactions(tx, []));
    const { ins, txs } = await scenario([{ amount: "31.00", name: "Chunk Edge AS" }]);
    const id = txs[0]?.id ?? "";
    await h.database.db.delete(s.reconciliationMatches).where(eq(s.reconciliationMatches.transactionId, id));
    const ids = [...Array.from({ length: 999 }, () => uid()), id];
    await h.database.db.transaction((tx) => proposeMatchesForTransactions(tx, ids));
    const got = await matchesFor(id);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ payment_instruction_id: ins[0]?.id, state: "proposed", score: 100 });
  });

  it("an amount-and-name match without a reference is proposed with a lower score", async () => {
    const { txs } = await scenario([
      {
        amount: "4321.00",
        name: "Bergen Trykk AS",
        tx: { remittance: "Faktura 9981", endToEndId: null, counterpartyName: "BERGEN TRYKK" },
      },
    ]);
    const [m] = await matchesFor(txs[0]?.id ?? "");
    expect(m?.score_breakdown).toEqual({ amount: 100, date: 100, reference: 0, name: 100 });
    expect(m?.score).toBe(65);
  });

  it("keeps at most three proposals per transaction, the best scores first", async () => {
    // Five instructions of one amount and creditor; only the first is booked, with its end-to-end id.
    // The other four match it on amount, date and name (score 65) — one proposal too many.
    const { ins, txs } = await scenario([
      { amount: "777.00", name: "Cap Supplier AS" },
      ...Array.from({ length: 4 }, () => ({ amount: "777.00", name: "Cap Supplier AS", tx: null })),
    ]);
    expect(txs).toHaveLength(1);
    const got = await matchesFor(txs[0]?.id ?? "");
    expect(got).toHaveLength(3);
    const byScore = [...got].sort((a, b) => b.score - a.score);
    expect(byScore[0]).toMatchObject({ payment_instruction_id: ins[0]?.id, score: 100 });
    // Ties (65) go to the smallest instruction ids.
    const tied = ins
      .slice(1)
      .map((i) => i.id)
      .sort();
    expect(
      byScore
        .slice(1)
        .map((m) => [m.payment_instruction_id, m.score])
        .sort(),
    ).toEqual(tied.slice(0, 2).map((id) => [id, 65]));
  });

  it("the simulated bank proposes matches for the payments it books", async () => {
    const company = IDS.companyA;
    const body = {
      company_id: company,
      currency: "NOK",
      instructions: [
        {
          amount: "250.00",
          currency: "NOK",
          creditor_name: "Bank Flow AS",
          creditor_iban: "NO9386011117947",
          end_to_end_id: "BANKFLOW-1",
        },
        {
          amount: "75.50",
          currency: "NOK",
          creditor_name: "Second Creditor AS",
          creditor_iban: "NO9386011117947",
          end_to_end_id: "BANKFLOW-2",
        },
      ],
    };
    const created = await h.write("POST", "/payments/batches", { company, json: body });
    expect(created.status).toBe(201);
    const batchId = ((await created.json()) as { id: string }).id;
    expect((await h.write("POST", `/payments/batches/${batchId}/submit`, { company })).status).toBe(202);
    const approvalId = await approvalIdOf(h.database.db, batchId);
    const approve = { client: "fullB" as const, idem: true as const, json: { approver: "checker@example.com" } };
    expect((await h.call("POST", `/approvals/${approvalId}/approve`, approve)).status).toBe(200);
    for (let i = 0; i < 5; i++) await runBankOnce(h.database.db, { bankSpeed: "instant" });
    const settled = await h.database.db
      .select()
      .from(s.paymentInstructions)
      .where(and(eq(s.paymentInstructions.batchId, batchId), eq(s.paymentInstructions.status, "settled")));
    expect(settled.length).toBeGreaterThan(0);
    for (const ins of settled) {
      const res = await h.call("GET", `/reconciliation/matches?payment_instruction_id=${ins.id}`, { client: "fullB" });
      const env = (await res.json()) as { results: Match[] };
      expect(env.results).toHaveLength(1);
      expect(env.results[0]).toMatchObject({ transaction_id: ins.transactionId, state: "proposed", score: 100 });
    }
  });
});

describe("GET /reconciliation/matches", () => {
  it("both forms, company header optional, state filter, paging", async () => {
    // Its own data: two proposals in company B and two in company A (none decided), whatever ran before.
    await scenario(
      [
        { amount: "1.00", name: "B one" },
        { amount: "2.00", name: "B two" },
      ],
      IDS.companyB,
      IDS.accountB1,
      "SEK",
    );
    await scenario([
      { amount: "3.00", name: "A three" },
      { amount: "4.00", name: "A four" },
    ]);
    const all = (await (await h.call("GET", "/reconciliation/matches?page_size=2", { client: "fullB" })).json()) as {
      count: number;
      results: Match[];
      next: string | null;
    };
    expect(all.results).toHaveLength(2);
    expect(all.count).toBeGreaterThan(2);
    expect(all.next).toMatch(/page=2/);
    const onlyB = (await (
      await h.call("GET", "/reconciliation/matches?limit=1000", { client: "fullB", company: IDS.companyB })
    ).json()) as { results: Match[] };
    expect(onlyB.results.length).toBeGreaterThanOrEqual(2);
    expect(onlyB.results.every((m) => m.company_id === IDS.companyB)).toBe(true);
    const readB = (await (await h.call("GET", "/reconciliation/matches?limit=1000", { client: "readB" })).json()) as {
      results: Match[];
    };
    expect(readB.results.every((m) => m.company_id === IDS.companyA)).toBe(true);
    const formA = (await (
      await h.call("GET", "/reconciliation/matches?state=proposed&limit=3", { client: "partnerA" })
    ).json()) as Match[];
    expect(Array.isArray(formA)).toBe(true);
    expect(formA).toHaveLength(3);
    expect(formA.every((m) => m.state === "proposed")).toBe(true);
    const other = (await (await h.call("GET", "/reconciliation/matches", { client: "otherB" })).json()) as {
      count: number;
    };
    expect(other.count).toBe(0);
  });

  it("400 for an unknown state or parameter; 403 without read:reconciliation or for a foreign company", async () => {
    expect((await h.call("GET", "/reconciliation/matches?state=maybe", { client: "fullB" })).status).toBe(400);
    expect((await h.call("GET", "/reconciliation/matches?colour=red", { client: "fullB" })).status).toBe(400);
    expect((await h.call("GET", "/reconciliation/matches", { client: "fullB", scope: "read:ledger" })).status).toBe(
      403,
    );
    expect((await h.call("GET", "/reconciliation/matches", { client: "fullB", company: IDS.companyC })).status).toBe(
      403,
    );
  });
});

describe("confirm / reject", () => {
  it(
    "confirm: 200 with the match, audit fields, match.updated event; idempotent replay; a second confirm is " + "409",
    async () => {
      const { txs } = await scenario([{ amount: "300.00", name: "Confirm AS" }]);
      const [m] = await matchesFor(txs[0]?.id ?? "");
      const key = uid();
      const res = await decide("confirm", m?.id ?? "", {
        json: { reviewer: "alice@example.com", reason: "invoice 42" },
        idem: key,
      });
      expect(res.status).toBe(200);
      const confirmed = (await res.json()) as Match;
      expect(confirmed).toMatchObject({
        id: m?.id,
        state: "confirmed",
        reviewer: "alice@example.com",
        reason: "invoice 42",
      });
      expect(confirmed.decided_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      const replay = await decide("confirm", m?.id ?? "", {
        json: { reviewer: "alice@example.com", reason: "invoice 42" },
        idem: key,
      });
      expect(replay.status).toBe(200);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(await replay.json()).toEqual(confirmed);
      const again = await decide("confirm", m?.id ?? "");
      expect(again.status).toBe(409);
      expect(((await again.json()) as Json).details).toEqual({ state: "confirmed", allowed: ["proposed"] });
      const events = await queryRows<{ n: number }>(
        h.database.db,
        sql`select count(*)::int as n from webhook_events where type = 'reconciliation.match.updated' and
        payload->'data'->>'id' = ${m?.id ?? ""}`,
      );
      expect(events[0]?.n).toBe(1);
      const [row] = await h.database.db
        .select()
        .from(s.reconciliationMatches)
        .where(eq(s.reconciliationMatches.id, m?.id ?? ""));
      expect(row?.decidedByClientId).toBe(CLIENTS.fullB.id);
    },
  );

  it("every illegal transition is 409 with state and allowed", async () => {
    const { txs } = await scenario([
      { amount: "11.00", name: "Ill One" },
      { amount: "12.00", name: "Ill Two" },
    ]);
    const [a] = await matchesFor(txs[0]?.id ?? "");
    const [b] = await matchesFor(txs[1]?.id ?? "");
    expect((await decide("confirm", a?.id ?? "")).status).toBe(200);
    expect((await decide("reject", b?.id ?? "", { client: "partnerA" })).status).toBe(200);
    for (const [kind, id, state] of [
      ["confirm", a?.id, "confirmed"],
      ["reject", a?.id, "confirmed"],
      ["confirm", b?.id, "rejected"],
      ["reject", b?.id, "rejected"],
    ] as const) {
      const res = await decide(kind, id ?? "");
      expect(res.status, `${kind} from ${state}`).toBe(409);
      const body = (await res.json()) as Json;
      expect(body.error).toBe("conflict");
      expect(body.details).toEqual({ state, allowed: ["proposed"] });
    }
  });

  it(
    "one transaction is never confirmed against two instructions (and one instruction never against two " +
      "transactions)",
    async () => {
      // Two instructions with the same amount and creditor, one booking that fits both.
      const { ins, txs } = await scenario([
        { amount: "880.00", name: "Twin Creditor AS", tx: { remittance: "twin payment", endToEndId: null } },
        { amount: "880.00", name: "Twin Creditor AS", tx: null },
      ]);
      const proposals = await matchesFor(txs[0]?.id ?? "");
      expect(proposals.map((p) => p.payment_instruction_id).sort()).toEqual(ins.map((i) => i.id).sort());
      const [first, second] = proposals;
      expect((await decide("confirm", first?.id ?? "")).status).toBe(200);
      const res = await decide("confirm", second?.id ?? "");
      expect(res.status).toBe(409);
      expect(((await res.json()) as Json).details).toMatchObject({
        reason: "transaction_already_matched",
        match_id: first?.id,
      });
      // The other direction: a second booking for the already matched instruction.
      const matchedInstruction = ins.find((i) => i.id === first?.payment_instruction_id);
      const extra = {
        ...txs[0],
        id: uid(),
        remittance: matchedInstruction?.endToEndId ?? "",
        endToEndId: matchedInstruction?.endToEndId ?? null,
      } as typeof s.transactions.$inferInsert;
      await h.database.db.insert(s.transactions).values(extra);
      // The matcher skips instructions confirmed elsewhere, so put the proposal in by hand.
      const [manual] = await h.database.db
        .insert(s.reconciliationMatches)
        .values({
          id: uid(),
          tenantId: IDS.tenant,
          companyId: IDS.companyA,
          paymentInstructionId: first?.payment_instruction_id ?? "",
          transactionId: extra.id,
          state: "proposed",
          score: 90,
          scoreBreakdown: { amount: 100, date: 100, reference: 100, name: 40 },
        })
        .returning();
      const res2 = await decide("confirm", manual?.id ?? "");
      expect(res2.status).toBe(409);
      expect(((await res2.json()) as Json).details).toMatchObject({ reason: "instruction_already_matched" });
      // The database refuses it too (partial unique index), whatever the code path.
      await expect(
        h.database.db
          .update(s.reconciliationMatches)
          .set({ state: "confirmed" })
          .where(eq(s.reconciliationMatches.id, second?.id ?? "")),
      ).rejects.toThrow();
    },
  );

  it(
    "404 outside the scope, 400 for a bad id or body, 403 without write:reconciliation or write " + "approval",
    async () => {
      const { txs } = await scenario([{ amount: "55.00", name: "Scope AS" }]);
      const [m] = await matchesFor(txs[0]?.id ?? "");
      const id = m?.id ?? "";
      expect((await decide("confirm", id, { client: "otherB" })).status).toBe(404);
      expect((await decide("confirm", id, { company: IDS.companyB })).status).toBe(404);
      expect((await decide("confirm", uid())).status).toBe(404);
      expect((await decide("confirm", "not-a-uuid")).status).toBe(400);
      expect((await decide("confirm", id, { json: { reviewer: "x", colour: "red" } })).status).toBe(400);
      expect((await decide("reject", id, { json: { reason: "" } })).status).toBe(400);
      expect((await decide("confirm", id, { client: "readB" })).status).toBe(403);
      // No Idempotency-Key.
      expect((await h.call("POST", `/reconciliation/matches/${id}/confirm`, { client: "fullB" })).status).toBe(400);
      const ok = await decide("reject", id, { company: IDS.companyA, json: {} });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as Match).state).toBe("rejected");
    },
  );
});
