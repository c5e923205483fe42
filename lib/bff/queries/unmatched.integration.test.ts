/**
 * The unmatched view and the manual match against the real local treasury-api
 * (in-memory PGlite, small demo seed), through the BFF routes and queries:
 *
 * - a treasurer's page lists settled instructions / debit transactions without
 *   a confirmed match, aged with their company's today and bucketed; the age
 *   filter and the sort go upstream; a cold page costs two upstream calls
 *   (token, unmatched list), a warm one none, the counterparts one;
 * - a manual match through the route: 201, confirmed, attributed to the user,
 *   one audit entry (a confirmation, `manual`), both sides leave the view, the
 *   match is in the review's decided tab with the user's decision; a second
 *   match of the same instruction is 409; a bad body is 400 naming the field; a
 *   viewer is 403;
 * - a user limited to one company never sees another company's items, and may
 *   not name another company;
 * - an API that does not advertise the extensions: the page says why manual
 *   matching is absent, the route refuses with 409 not_supported, and the view
 *   falls back to bounded spec reads of one company.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../../auth/session", async () => (await import("../testing/local-api")).sessionModule);
vi.mock("next/headers", async () => (await import("../testing/local-api")).headersModule);

import { randomUUID } from "node:crypto";
import type { Company } from "@treasury/contract";
import { businessToday } from "@treasury/contract/business-date";
import { collectAll } from "../../treasury-client";
import type { DashboardUser } from "../../db/users";
import { listAudit } from "../../db/audit";
import { dashboardDb } from "../../server/db";
import type { TreasuryClient } from "../../treasury-client";
import type { MatchCandidate, UnmatchedPage } from "../../views/unmatched";
import type { Capabilities } from "../capabilities";
import type { BffContext } from "../context";
import {
  callRoute,
  countingClient,
  errorFields,
  installCapabilities,
  startLocalApi,
  testUser,
  useBffEnv,
  type LocalApi,
  type RouteHandler,
} from "../testing/local-api";
import { listMatchReview } from "./match-views";
import { CandidatesQuery, UNMATCHED_PAGE_SIZE, listCandidates, listUnmatchedView } from "./unmatched";
import * as listRoute from "../../../app/api/treasury/reconciliation/unmatched/route";
import * as manualRoute from "../../../app/api/treasury/reconciliation/manual-matches/route";

const ORIGIN = "http://127.0.0.1:3996";
type Global = { __treasuryClient?: TreasuryClient; __treasuryCapabilities?: Capabilities };
const g = globalThis as Global;

let local: LocalApi;
let companies: Company[];
const treasurer = testUser("unmatched.treasurer", ["treasurer"]);

function ctxOf(user: DashboardUser): BffContext {
  const mine = user.companyIds === null ? companies : companies.filter((c) => user.companyIds?.includes(c.id));
  return { user, companies: mine, company: mine[0] ?? null, requestId: "unmatched-test" };
}

function getPage(query: string, who: DashboardUser = treasurer) {
  return callRoute<UnmatchedPage & Record<string, unknown>>(listRoute.GET as RouteHandler, {
    who,
    origin: ORIGIN,
    method: "GET",
    path: `/reconciliation/unmatched?${query}`,
  });
}

function postMatch(json: unknown, who: DashboardUser = treasurer, key = randomUUID()) {
  return callRoute(manualRoute.POST as RouteHandler, {
    who,
    origin: ORIGIN,
    method: "POST",
    path: "/reconciliation/manual-matches",
    json,
    key,
  });
}

beforeAll(async () => {
  local = await startLocalApi({ seedScale: 0.02, capabilities: "advertised" });
  useBffEnv(local, ORIGIN);
  companies = local.companies();
  if (companies.length < 2) throw new Error("demo seed did not run");
  g.__treasuryClient = countingClient(local).client;
}, 120_000);

afterAll(async () => {
  g.__treasuryCapabilities?.stop();
  await local?.api.close();
});

/**
 * A payment the simulated bank rejects (a payee named "REJECT …" gets AC04): a batch created, submitted and approved
 * through the API; resolves once the bank has rejected it (the API's bank runs at its default, fast pace).
 */
async function rejectedPayment(companyId: string): Promise<{ batchId: string; endToEndId: string }> {
  const client = local.client;
  const endToEndId = `UNM-REJ-${randomUUID().slice(0, 8)}`;
  const batch = await client.createBatch(
    { companyId, idempotencyKey: randomUUID() },
    {
      company_id: companyId,
      currency: "NOK",
      instructions: [
        {
          amount: "77.10",
          currency: "NOK",
          creditor_name: "REJECT Closed Account AS",
          creditor_iban: "NO9386011117947",
          end_to_end_id: endToEndId,
        },
      ],
    },
  );
  await client.submitBatch({ companyId, idempotencyKey: randomUUID() }, batch.id);
  const pending = await collectAll(client.listPendingApprovals({ companyId }, { pageSize: 100 }));
  const request = pending.find((p) => p.object_id === batch.id);
  if (!request) throw new Error("no approval request");
  await client.approve({ companyId, idempotencyKey: randomUUID() }, request.id, { approver: "someone-else" });
  for (let i = 0; i < 120; i++) {
    const now = await client.getBatch({ companyId }, batch.id);
    if (now.status === "failed") return { batchId: batch.id, endToEndId };
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the simulated bank did not reject the payment within 60 s");
}

describe("the unmatched view", () => {
  it("lists settled instructions and debits without a confirmed match, aged and bucketed, oldest first", async () => {
    for (const kind of ["instruction", "transaction"] as const) {
      const { status, body } = await getPage(`kind=${kind}`);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body).toMatchObject({ kind, source: "extension", manual_match: true, manual_match_reason: null });
      expect(body.items.length).toBeGreaterThan(0);
      expect(body.items.length).toBeLessThanOrEqual(UNMATCHED_PAGE_SIZE);
      const names = new Map(companies.map((c) => [c.id, c]));
      for (const r of body.items) {
        expect(r.kind).toBe(kind);
        const company = names.get(r.company_id);
        expect(r.company_name).toBe(company?.name);
        const today = businessToday(company?.country);
        const age = Math.max(0, Math.round((Date.parse(today) - Date.parse(r.date)) / 86_400_000));
        expect(r.age_days).toBe(age);
        expect(r.amount).toMatch(/^\d+\.\d{2}$/);
      }
      const dates = body.items.map((r) => r.date);
      expect(dates).toEqual([...dates].sort());
      if (kind === "instruction") expect(body.items.every((r) => r.status === "settled")).toBe(true);
    }
  });

  it("filters by age bucket upstream, and sorts by amount", async () => {
    const all = await getPage("kind=transaction");
    const old = await getPage("kind=transaction&age=31%2B");
    expect(old.status).toBe(200);
    expect(old.body.items.every((r) => r.age_days > 30 && r.age_bucket === "31+")).toBe(true);
    const recent = await getPage("kind=transaction&age=0-2");
    expect(recent.body.items.every((r) => r.age_days <= 2)).toBe(true);
    expect((old.body.count ?? 0) + (recent.body.count ?? 0)).toBeLessThanOrEqual(all.body.count ?? 0);
    const byAmount = await getPage("kind=transaction&sort=amount_desc");
    const amounts = byAmount.body.items.map((r) => Number(r.amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    for (const [q, field] of [
      ["kind=both", "kind"],
      ["kind=instruction&age=9-10", "age"],
      ["kind=instruction&sort=age", "sort"],
      ["kind=instruction&company_id=nope", "company_id"],
    ] as const) {
      const bad = await getPage(q);
      expect(bad.status, q).toBe(400);
      expect(errorFields(bad.body)).toContain(field);
    }
  });

  it("lists the payments the bank rejected with its reason, and offers no counterpart for them", async () => {
    const company = local.company();
    const { batchId, endToEndId } = await rejectedPayment(company.id);
    const { status, body } = await getPage("kind=rejected");
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ kind: "rejected", source: "extension" });
    expect(body.items.find((r) => r.end_to_end_id === endToEndId)).toMatchObject({
      kind: "rejected",
      status: "rejected",
      batch_id: batchId,
      company_id: company.id,
      company_name: company.name,
      counterparty_name: "REJECT Closed Account AS",
      amount: "77.10",
      currency: "NOK",
      reason: "AC04",
      age_days: 0,
    });
    for (const r of body.items) {
      expect(r).toMatchObject({ kind: "rejected", status: "rejected" });
      expect(r.reason).toMatch(/^[A-Z0-9]{4}$/);
      expect(r.batch_id).not.toBeNull();
    }
    // None of them is among the payments without a match.
    const settled = await getPage("kind=instruction&sort=newest");
    const rejectedIds = new Set(body.items.map((r) => r.id));
    expect(settled.body.items.some((r) => rejectedIds.has(r.id))).toBe(false);
    const parsed = CandidatesQuery.safeParse({
      for_kind: "rejected",
      company_id: body.items[0]?.company_id,
      currency: "NOK",
      amount: "1.00",
      date: "2026-11-01",
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join("."))).toEqual(["for_kind"]);
  });

  it("costs two upstream calls cold (token, unmatched list), one warm, and one for the counterparts", async () => {
    const counted = countingClient(local);
    g.__treasuryClient = counted.client;
    const page = await listUnmatchedView(ctxOf(treasurer), { kind: "instruction", sort: "oldest" });
    expect(counted.calls).toEqual(["POST /auth/token/", "GET /reconciliation/unmatched"]);
    // Warm: the token is reused; this test client has no shared upstream cache, so the list is read again.
    await listUnmatchedView(ctxOf(treasurer), { kind: "instruction", sort: "oldest" });
    expect(counted.calls.slice(2)).toEqual(["GET /reconciliation/unmatched"]);
    const item = page.items[0];
    if (!item) throw new Error("no unmatched instruction in the demo");
    await listCandidates(ctxOf(treasurer), {
      for_kind: "instruction",
      company_id: item.company_id,
      currency: item.currency,
      amount: item.amount,
      date: item.date,
    });
    expect(counted.calls.slice(3)).toEqual(["GET /reconciliation/unmatched"]);
    console.log(`unmatched view upstream calls (cold page, warm page, counterparts):\n${counted.calls.join("\n")}`);
  });
});

describe("a manual match", () => {
  it("is created confirmed for the user, audited once, leaves the view and shows in the decided tab", async () => {
    g.__treasuryClient = countingClient(local).client;
    const ctx = ctxOf(treasurer);
    const instructions = await listUnmatchedView(ctx, { kind: "instruction", sort: "oldest" });
    // An instruction with a counterpart near in amount and date.
    let pick: { ins: (typeof instructions.items)[number]; tx: MatchCandidate } | null = null;
    for (const ins of instructions.items) {
      const { items } = await listCandidates(ctx, {
        for_kind: "instruction",
        company_id: ins.company_id,
        currency: ins.currency,
        amount: ins.amount,
        date: ins.date,
      });
      for (const c of items) {
        expect(c).toMatchObject({ kind: "transaction", company_id: ins.company_id, currency: ins.currency });
        expect(Math.abs(Number(c.amount_difference))).toBeLessThanOrEqual(Number(ins.amount) * 0.1 + 0.01);
      }
      if (items[0]) {
        pick = { ins, tx: items[0] };
        break;
      }
    }
    if (!pick) throw new Error("no instruction with a counterpart in the demo");
    const body = {
      instruction_id: pick.ins.id,
      transaction_id: pick.tx.id,
      company_id: pick.ins.company_id,
      note: "Matched by hand in the test",
    };
    const created = await postMatch(body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      payment_instruction_id: pick.ins.id,
      transaction_id: pick.tx.id,
      state: "confirmed",
      origin: "manual",
      reviewer: treasurer.email,
      reason: "Matched by hand in the test",
    });
    const matchId = created.body.id as string;
    const audit = await listAudit(await dashboardDb(), {
      companyIds: null,
      action: "reconciliation_match.confirm",
      objectIds: [matchId],
      limit: 5,
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ userEmail: treasurer.email, companyId: pick.ins.company_id, outcome: "success" });
    expect(audit[0]?.details).toMatchObject({ manual: true, reason: "Matched by hand in the test" });

    const after = await getPage(`kind=instruction&company_id=${pick.ins.company_id}&q=${pick.ins.end_to_end_id}`);
    expect(after.body.items.map((r) => r.id)).not.toContain(pick.ins.id);
    const txAfter = await getPage("kind=transaction&sort=newest");
    expect(txAfter.body.items.map((r) => r.id)).not.toContain(pick.tx.id);

    const decided = await listMatchReview(ctx, { tab: "decided" });
    const row = decided.items.find((r) => r.match.id === matchId);
    expect(row?.match).toMatchObject({ state: "confirmed", origin: "manual" });
    expect(row?.decision).toMatchObject({ email: treasurer.email, reason: "Matched by hand in the test" });
    expect(row?.instruction?.id).toBe(pick.ins.id);

    // An unknown transaction is 404; the same instruction with another transaction is 409 naming its match.
    const again = await postMatch({ ...body, transaction_id: randomUUID() });
    expect(again.status).toBe(404);
    const other = (await getPage(`kind=transaction&company_id=${pick.ins.company_id}`)).body.items.find(
      (t) => t.currency === pick?.ins.currency,
    );
    expect(other).toBeDefined();
    if (other) {
      const twice = await postMatch({ ...body, transaction_id: other.id });
      expect(twice.status).toBe(409);
      expect(twice.body.details).toMatchObject({ reason: "instruction_already_matched", match_id: matchId });
    }
  });

  it("refuses bad bodies with 400 naming the field, and viewers with 403", async () => {
    const good = { instruction_id: randomUUID(), transaction_id: randomUUID(), company_id: companies[0]?.id };
    for (const [json, field] of [
      [{ ...good, instruction_id: "x" }, "instruction_id"],
      [{ ...good, transaction_id: undefined }, "transaction_id"],
      [{ ...good, company_id: undefined }, "company_id"],
      [{ ...good, note: "n".repeat(501) }, "note"],
      // An unknown field is named in the message (zod reports it on the body).
      [{ ...good, score: 100 }, "body"],
    ] as const) {
      const r = await postMatch(json);
      expect(r.status, field).toBe(400);
      expect(errorFields(r.body)).toContain(field);
      if (field === "body") expect(r.body.message).toContain("score");
    }
    const viewer = { ...treasurer, id: randomUUID(), roles: ["viewer" as const] };
    expect((await postMatch(good, viewer)).status).toBe(403);
  });
});

describe("company context", () => {
  it("a user limited to one company sees only its items and may not name another", async () => {
    const [first, second] = companies;
    if (!first || !second) throw new Error("two companies needed");
    const limited: DashboardUser = { ...treasurer, id: randomUUID(), companyIds: [second.id] };
    for (const kind of ["instruction", "transaction"]) {
      const r = await getPage(`kind=${kind}`, limited);
      expect(r.status).toBe(200);
      expect(r.body.items.every((i) => i.company_id === second.id)).toBe(true);
    }
    const all = await getPage("kind=transaction");
    expect(new Set(all.body.items.map((i) => i.company_id)).size).toBeGreaterThan(0);
    const refused = await getPage(`kind=transaction&company_id=${first.id}`, limited);
    expect(refused.status).toBe(403);
    const item = all.body.items.find((i) => i.company_id === first.id);
    if (item) {
      const r = await postMatch(
        { instruction_id: randomUUID(), transaction_id: item.id, company_id: first.id },
        limited,
      );
      expect(r.status).toBe(403);
    }
  });
});

describe("an API without the extensions", () => {
  it("says why manual matching is absent, refuses it, and falls back to spec reads of one company", async () => {
    const withExt = await getPage(`kind=transaction&company_id=${companies[0]?.id}&age=8-30`);
    const withRejected = await getPage("kind=rejected");
    await installCapabilities(local.baseUrl, "none");
    try {
      const counted = countingClient(local);
      g.__treasuryClient = counted.client;
      const r = await getPage(`kind=transaction&company_id=${companies[0]?.id}&age=8-30`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ source: "fallback", window_days: 90, manual_match: false });
      expect(r.body.manual_match_reason).toMatch(/cannot create a match by hand/);
      // Within 90 days the fallback finds what the extension finds.
      expect(r.body.items.map((i) => i.id)).toEqual(withExt.body.items.map((i) => i.id));
      expect(counted.calls).toEqual(["POST /auth/token/", "GET /reconciliation/matches", "GET /transactions"]);
      // Instructions: matches and settled status events, then the page's instructions one by one (the spec has no
      // bulk read of instructions): bounded by the page size, over the page budget on a spec-only API.
      const before = counted.calls.length;
      const ins = await getPage(`kind=instruction&company_id=${companies[0]?.id}`);
      expect(ins.status).toBe(200);
      for (const i of ins.body.items) expect(i.counterparty_name).not.toBe("");
      const insCalls = counted.calls.slice(before);
      expect(insCalls.slice(0, 2)).toEqual(["GET /reconciliation/matches", "GET /payments/status-events"]);
      expect(insCalls.length).toBe(2 + ins.body.items.length);
      console.log(`fallback upstream calls: transactions page 3 (cold), instructions page ${insCalls.length}`);
      // Rejected payments: the rejected status events carry the bank's reason; the page's instructions are read.
      expect(withRejected.body.items.length, "the rejected payment of the test above").toBeGreaterThan(0);
      const rejectedCompany = withRejected.body.items[0]?.company_id;
      const rej = await getPage(`kind=rejected&company_id=${rejectedCompany}`);
      expect(rej.status, JSON.stringify(rej.body)).toBe(200);
      expect(rej.body).toMatchObject({ kind: "rejected", source: "fallback" });
      const recent = withRejected.body.items.filter((i) => i.company_id === rejectedCompany && i.age_days <= 90);
      const shown = (i: UnmatchedPage["items"][number]) => [
        i.id,
        i.reason,
        i.reason_text,
        i.counterparty_name,
        i.amount,
      ];
      expect(rej.body.items.map(shown)).toEqual(recent.slice(0, UNMATCHED_PAGE_SIZE).map(shown));
      const refused = await postMatch({
        instruction_id: randomUUID(),
        transaction_id: randomUUID(),
        company_id: companies[0]?.id,
      });
      expect(refused.status).toBe(409);
      expect(refused.body.details).toMatchObject({ reason: "not_supported" });
    } finally {
      await installCapabilities(local.baseUrl, "advertised");
    }
  });
});
