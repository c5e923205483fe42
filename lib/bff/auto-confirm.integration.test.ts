/**
 * Auto-confirm rules against the real local treasury-api (in-memory PGlite, small demo seed): the admin routes
 * (400 naming the field, 403 for a treasurer, 409 for a taken name); a rule confirms exactly the proposals meeting
 * it when the review is read, attributed to the rule in the API and the audit log; a crash after recording (before
 * the API call) and one after the API call (before marking) are both recovered by the next run under the recorded
 * Idempotency-Key, confirming once; an undo within 24 h reopens the match, audited, and the rule leaves it alone;
 * past 24 h it is refused; a confirmation the API refuses is kept as failed, never sent again, and the proposal
 * names the rule and the API's answer.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../auth/session", async () => (await import("./testing/local-api")).sessionModule);
vi.mock("next/headers", async () => (await import("./testing/local-api")).headersModule);

import { randomUUID } from "node:crypto";
import Decimal from "decimal.js";
import { and, eq, sql } from "drizzle-orm";
import { queryRows } from "@treasury/test-support/local-api";
import type { DashboardUser } from "../db/users";
import { listAudit } from "../db/audit";
import { reconciliationAutoConfirmations, reconciliationAutoRules } from "../db/schema";
import { dashboardDb } from "../server/db";
import type { ReconciliationMatch } from "@treasury/contract";
import { collectAll } from "../treasury-client";
import type { Capabilities } from "./capabilities";
import { confirmationsOf, pendingConfirmations, recordIntended } from "../auto-confirm/store";
import { runAutoConfirm } from "./auto-confirm";
import { bffSuite, errorFields, testUser } from "./testing/local-api";
import * as rulesRoute from "../../app/api/reconciliation-rules/route";
import * as ruleRoute from "../../app/api/reconciliation-rules/[id]/route";
import * as reviewRoute from "../../app/api/treasury/reconciliation/review/route";
import * as undoRoute from "../../app/api/treasury/reconciliation/matches/[id]/undo-auto-confirm/route";

// The undo needs the reopen capability: read from the API's OpenAPI document, as in production.
const bff = bffSuite({ origin: "http://127.0.0.1:3997", capabilities: "advertised" });
const admin = testUser("rules.admin", ["admin"]);
const treasurer = testUser("rules.treasurer", ["treasurer"]);

function call(
  handler: unknown,
  method: string,
  path: string,
  who: DashboardUser,
  opts: { json?: unknown; params?: Record<string, string> } = {},
) {
  return bff.call(handler, who, method, path, opts);
}

const matches = async () => [...(await collectAll(bff.client.listMatches({ cache: "no-store" }, { pageSize: 1000 })))];

/** The matches a rule with these conditions confirms, computed here from the API's own rows (not the rule code). */
async function meeting(
  ms: readonly ReconciliationMatch[],
  cond: { minScore: number; companyId?: string },
): Promise<Set<string>> {
  const out = new Set<string>();
  // A side confirmed in another match cannot be confirmed again (the API refuses it).
  const confirmed = new Set(
    ms.filter((m) => m.state === "confirmed").flatMap((m) => [m.transaction_id, m.payment_instruction_id]),
  );
  for (const m of ms) {
    if (m.state !== "proposed" || m.score < cond.minScore) continue;
    if (confirmed.has(m.transaction_id) || confirmed.has(m.payment_instruction_id)) continue;
    if (cond.companyId && m.company_id !== cond.companyId) continue;
    const [ins, tx] = await Promise.all([
      bff.client.getInstruction({ companyId: m.company_id }, m.payment_instruction_id),
      bff.client.getTransaction({ companyId: m.company_id }, m.transaction_id),
    ]);
    if (ins.currency !== tx.currency || !new Decimal(ins.amount).eq(tx.amount)) continue;
    if (!tx.end_to_end_id || tx.end_to_end_id !== ins.end_to_end_id) continue;
    out.add(m.id);
  }
  return out;
}

async function clearRules() {
  const db = await dashboardDb();
  await db.delete(reconciliationAutoRules);
}

describe("auto-confirm rules admin", () => {
  it("400 naming each bad field, 403 for a treasurer, 201 then 409 for a taken name, update and delete audited", async () => {
    const bad = await call(rulesRoute.POST, "POST", "/api/reconciliation-rules", admin, {
      json: { name: "", min_score: 101, exact_amount: "yes", currency: "kroner", max_amount: "1e5" },
    });
    expect(bad.status).toBe(400);
    expect(errorFields(bad.body).sort()).toEqual(["currency", "exact_amount", "max_amount", "min_score", "name"]);
    const body = { name: "Exact 100", min_score: 100 };
    expect((await call(rulesRoute.POST, "POST", "/api/reconciliation-rules", treasurer, { json: body })).status).toBe(
      403,
    );
    expect((await call(rulesRoute.GET, "GET", "/api/reconciliation-rules", treasurer)).status).toBe(403);
    const made = await call(rulesRoute.POST, "POST", "/api/reconciliation-rules", admin, {
      json: { ...body, enabled: false },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "Exact 100", min_score: 100, exact_amount: true, end_to_end_id: true });
    const dup = await call(rulesRoute.POST, "POST", "/api/reconciliation-rules", admin, {
      json: { ...body, name: "exact 100" },
    });
    expect(dup.status).toBe(409);
    expect(errorFields(dup.body)).toEqual(["name"]);
    const id = String(made.body.id);
    const put = await call(ruleRoute.PUT, "PUT", `/api/reconciliation-rules/${id}`, admin, {
      json: { ...body, min_score: 99, enabled: false },
      params: { id },
    });
    expect(put.status).toBe(200);
    expect(put.body.min_score).toBe(99);
    const view = await call(rulesRoute.GET, "GET", "/api/reconciliation-rules", admin);
    expect(view.body).toMatchObject({ can_undo: true });
    expect((view.body.rules as unknown[]).length).toBe(1);
    expect(
      (await call(ruleRoute.DELETE, "DELETE", `/api/reconciliation-rules/${id}`, admin, { params: { id } })).status,
    ).toBe(204);
    expect(
      (await call(ruleRoute.DELETE, "DELETE", `/api/reconciliation-rules/${id}`, admin, { params: { id } })).status,
    ).toBe(404);
    const audit = await listAudit(await dashboardDb(), { companyIds: null, objectIds: [id] });
    expect(audit.map((a) => a.action).sort()).toEqual([
      "reconciliation_rule.create",
      "reconciliation_rule.delete",
      "reconciliation_rule.update",
    ]);
  });
});

describe("a rule at work", () => {
  // Each test starts from the same matches, so they run in any order: after each one, the rules and the rule records
  // are removed and every match the test confirmed is reopened in the API (the reopen extension).
  let startedAt = 0;
  let baseline = new Map<string, ReconciliationMatch["state"]>();
  beforeEach(async () => {
    startedAt = Date.now();
    baseline = new Map((await matches()).map((m) => [m.id, m.state]));
  });
  afterEach(async () => {
    await clearRules();
    await (await dashboardDb()).delete(reconciliationAutoConfirmations);
    for (const m of await matches()) {
      if (m.state !== "confirmed" || baseline.get(m.id) !== "proposed") continue;
      await bff.client.reopenMatch({ companyId: m.company_id, idempotencyKey: randomUUID() }, m.id, {
        reviewer: "test reset",
        reason: "Put back for the next test",
      });
    }
  });
  /** Audit entries written by this test (the log is append-only and keeps earlier tests' entries). */
  const sinceStart = <T extends { at: string }>(rows: T[]) => rows.filter((r) => new Date(r.at).getTime() >= startedAt);
  /** Makes a rule confirm the proposals it meets; @returns the confirmed records (at least `n`). */
  async function confirmedByRule(n: number) {
    await call(rulesRoute.POST, "POST", "/api/reconciliation-rules", admin, {
      json: { name: "Fixture", min_score: 100 },
    });
    await runAutoConfirm({});
    const recs = (await (await dashboardDb()).select().from(reconciliationAutoConfirmations)).filter(
      (r) => r.state === "confirmed",
    );
    expect(recs.length).toBeGreaterThanOrEqual(n);
    return recs;
  }

  it("confirms on the review read exactly the proposals that meet it, attributed to the rule; no others", async () => {
    const before = await matches();
    const company = before.find((m) => m.state === "proposed" && m.score === 100)?.company_id;
    expect(company).toBeDefined();
    const expected = await meeting(before, { minScore: 100, companyId: company });
    expect(expected.size).toBeGreaterThan(0);
    const made = await call(rulesRoute.POST, "POST", "/api/reconciliation-rules", admin, {
      json: { name: "Exact 100 one company", min_score: 100, company_id: company },
    });
    expect(made.status).toBe(201);

    const review = await call(reviewRoute.GET, "GET", "/api/treasury/reconciliation/review?tab=proposed", treasurer);
    expect(review.status).toBe(200);
    const shown = (review.body.items as { match: ReconciliationMatch }[]).map((r) => r.match.id);
    expect(shown.filter((id) => expected.has(id))).toEqual([]);

    const after = new Map((await matches()).map((m) => [m.id, m]));
    const changed = before.filter((m) => after.get(m.id)?.state !== m.state);
    expect(new Set(changed.map((m) => m.id))).toEqual(expected);
    for (const id of expected)
      expect(after.get(id)).toMatchObject({ state: "confirmed", reviewer: "rule:Exact 100 one company" });
    const audit = await listAudit(await dashboardDb(), {
      companyIds: null,
      action: "reconciliation_match.confirm",
      objectIds: [...expected],
      limit: 500,
    });
    expect(sinceStart(audit)).toHaveLength(expected.size);
    expect(sinceStart(audit).every((a) => a.userEmail === "rule:Exact 100 one company" && a.userId === null)).toBe(
      true,
    );
    expect(sinceStart(audit)[0]?.details).toMatchObject({ auto_rule: { name: "Exact 100 one company" } });

    // The decided tab names the rule and offers the undo until 24 h after the confirmation.
    const decided = await call(reviewRoute.GET, "GET", "/api/treasury/reconciliation/review?tab=decided", treasurer);
    const row = (decided.body.items as { match: { id: string }; auto_confirmation?: Record<string, unknown> }[]).find(
      (r) => expected.has(r.match.id),
    );
    expect(row?.auto_confirmation).toMatchObject({ rule_name: "Exact 100 one company" });
    expect(String(row?.auto_confirmation?.undo_until) > new Date(Date.now() + 23 * 3_600_000).toISOString()).toBe(true);
    // A second read confirms nothing more.
    expect((await runAutoConfirm({})).confirmed).toEqual([]);
    await clearRules();
  }, 60_000);

  it("a confirmation the API refuses is kept as failed, not sent again, and the proposal shows the rule and the answer", async () => {
    // A real refusal: a proposal whose transaction is already confirmed in another match (409 from the API). The
    // seed's ambiguity has two proposals for one transaction; one is confirmed here unless a rule already did.
    let all = await matches();
    const confirmedTx = new Set(all.filter((m) => m.state === "confirmed").map((m) => m.transaction_id));
    let target = all.find((m) => m.state === "proposed" && confirmedTx.has(m.transaction_id));
    if (!target) {
      const proposed = all.filter((m) => m.state === "proposed");
      const pair = proposed.find((m) => proposed.some((o) => o.id !== m.id && o.transaction_id === m.transaction_id));
      expect(pair).toBeDefined();
      await bff.client.confirmMatch({ companyId: pair?.company_id, idempotencyKey: randomUUID() }, String(pair?.id), {
        reviewer: "a person",
      });
      all = await matches();
      target = all.find((m) => m.state === "proposed" && m.transaction_id === pair?.transaction_id);
    }
    expect(target).toBeDefined();
    const id = String(target?.id);
    const db = await dashboardDb();
    await recordIntended(db, [
      {
        matchId: id,
        ruleId: randomUUID(),
        ruleName: "Refused rule",
        companyId: target?.company_id ?? null,
        upstreamKey: randomUUID(),
      },
    ]);
    try {
      const run = await runAutoConfirm({ matches: [] });
      expect(run.failed).toEqual([id]);
      expect(run.confirmed).toEqual([]);
      const rec = (await confirmationsOf(db, [id])).get(id);
      expect(rec).toMatchObject({ state: "failed", ruleName: "Refused rule" });
      // The API names the side it finds taken first (the pair shares the transaction; the instruction may be taken too).
      expect(rec?.error).toMatch(
        /^409 conflict: The (transaction|instruction) of this match is already confirmed in another match/,
      );
      // Never sent again: the next run has nothing pending, and the API still holds the proposal.
      expect(await runAutoConfirm({ matches: [] })).toEqual({ confirmed: [], failed: [], pending: [] });
      expect((await matches()).find((m) => m.id === id)?.state).toBe("proposed");

      // Every page of the proposed tab: only the refused proposal carries a failure.
      const items: { match: { id: string }; auto_confirm_failure?: unknown }[] = [];
      for (let page = 1, pages = 1; page <= pages; page++) {
        const review = await call(
          reviewRoute.GET,
          "GET",
          `/api/treasury/reconciliation/review?tab=proposed&page=${page}`,
          treasurer,
        );
        expect(review.status).toBe(200);
        items.push(...(review.body.items as typeof items));
        pages = Number(review.body.total_pages);
      }
      expect(items.map((r) => r.match.id)).toContain(id);
      const rows = items.filter((r) => r.auto_confirm_failure);
      expect(rows.map((r) => r.match.id)).toEqual([id]);
      expect(rows[0]?.auto_confirm_failure).toEqual({ rule_name: "Refused rule", error: rec?.error });
    } finally {
      await db.delete(reconciliationAutoConfirmations).where(eq(reconciliationAutoConfirmations.matchId, id));
    }
  }, 60_000);

  it("re-sends a confirmation recorded before a crash under the same key, and one sent before a crash, once", async () => {
    const before = await matches();
    const expected = await meeting(before, { minScore: 100 });
    expect(expected.size).toBeGreaterThanOrEqual(2);
    await call(rulesRoute.POST, "POST", "/api/reconciliation-rules", admin, {
      json: { name: "Crash test", min_score: 100 },
    });
    const db = await dashboardDb();

    // Crash 1: after the records are written, before any API call.
    await expect(
      runAutoConfirm({
        afterRecord: () => {
          throw new Error("crash after record");
        },
      }),
    ).rejects.toThrow("crash after record");
    const pending = await pendingConfirmations(db);
    expect(new Set(pending.map((p) => p.matchId))).toEqual(expected);
    const keys = new Map(pending.map((p) => [p.matchId, p.upstreamKey]));
    const still = new Map((await matches()).map((m) => [m.id, m.state]));
    for (const id of expected) expect(still.get(id)).toBe("proposed");

    // Crash 2: the next run sends the first one, then crashes before marking it.
    const [first] = pending;
    await expect(
      runAutoConfirm({
        afterSend: (id) => {
          if (id === first?.matchId) throw new Error("crash after send");
        },
      }),
    ).rejects.toThrow("crash after send");
    expect((await matches()).find((m) => m.id === first?.matchId)?.state).toBe("confirmed");
    expect((await confirmationsOf(db, [first?.matchId ?? ""])).get(first?.matchId ?? "")?.state).toBe("pending");

    // Recovery: every pending record is sent under its recorded key; the API answers the repeated one from its store.
    const out = await runAutoConfirm({});
    expect(new Set(out.confirmed)).toEqual(expected);
    const recs = await confirmationsOf(db, [...expected]);
    for (const id of expected) {
      expect(recs.get(id)).toMatchObject({ state: "confirmed", upstreamKey: keys.get(id) });
    }
    const audit = await listAudit(db, {
      companyIds: null,
      action: "reconciliation_match.confirm",
      objectIds: [...expected],
      limit: 500,
    });
    expect(sinceStart(audit)).toHaveLength(expected.size);
    expect(sinceStart(audit).find((a) => a.objectId === first?.matchId)).toMatchObject({
      outcome: "replayed",
      idempotencyKey: keys.get(first?.matchId ?? ""),
    });
    // The API holds one idempotency entry per recorded key: each confirm was one request, repeated at most.
    const stored = await queryRows<{ n: number }>(
      bff.local.api.database.db,
      sql`select count(*)::int as n from idempotency_keys where key in (${sql.join(
        [...keys.values()].map((k) => sql`${k}`),
        sql`, `,
      )})`,
    );
    expect(stored[0]?.n).toBe(expected.size);
    await clearRules();
  }, 60_000);

  it("against an API without the reopen extension: no Undo offered, the rules page says so, an undo is refused", async () => {
    const g = globalThis as { __treasuryCapabilities?: Capabilities };
    const real = g.__treasuryCapabilities;
    g.__treasuryCapabilities = {
      has: (n) => n !== "reconciliation.reopen" && (real?.has(n) ?? false),
      ready: Promise.resolve(),
      refresh: async () => {},
      stop: () => {},
    };
    await confirmedByRule(1);
    try {
      const view = await call(rulesRoute.GET, "GET", "/api/reconciliation-rules", admin);
      expect(view.body.can_undo).toBe(false);
      const decided = await call(reviewRoute.GET, "GET", "/api/treasury/reconciliation/review?tab=decided", treasurer);
      const autos = (decided.body.items as { auto_confirmation?: { undo_until: string | null } }[]).flatMap((r) =>
        r.auto_confirmation ? [r.auto_confirmation] : [],
      );
      expect(autos.length).toBeGreaterThan(0);
      expect(autos.every((a) => a.undo_until === null)).toBe(true);
      const db = await dashboardDb();
      const [rec] = (await db.select().from(reconciliationAutoConfirmations)).filter((r) => r.state === "confirmed");
      const id = rec?.matchId ?? "";
      const undo = await call(
        undoRoute.POST,
        "POST",
        `/api/treasury/reconciliation/matches/${id}/undo-auto-confirm`,
        treasurer,
        { params: { id } },
      );
      expect(undo.status).toBe(409);
      expect((undo.body.details as { reason: string }).reason).toBe("reopen_unavailable");
      expect((await confirmationsOf(db, [id])).get(id)?.state).toBe("confirmed");
      expect((await matches()).find((m) => m.id === id)?.state).toBe("confirmed");
    } finally {
      g.__treasuryCapabilities = real;
    }
  });

  it("a treasurer undoes a rule's confirmation within 24 h (audited, the rule leaves it alone); later is refused", async () => {
    const db = await dashboardDb();
    const [rec, old] = await confirmedByRule(2);
    const id = rec?.matchId ?? "";
    const viewer = testUser("rules.viewer", ["viewer"]);
    const path = `/api/treasury/reconciliation/matches/${id}/undo-auto-confirm`;
    expect((await call(undoRoute.POST, "POST", path, viewer, { params: { id } })).status).toBe(403);
    const undo = await call(undoRoute.POST, "POST", path, treasurer, { params: { id } });
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect((await matches()).find((m) => m.id === id)?.state).toBe("proposed");
    expect((await confirmationsOf(db, [id])).get(id)).toMatchObject({ state: "undone", undoneBy: treasurer.email });
    const audit = sinceStart(
      await listAudit(db, { companyIds: null, action: "reconciliation_match.reopen", objectIds: [id] }),
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ userEmail: treasurer.email, outcome: "success" });
    expect(audit[0]?.details).toMatchObject({ auto_rule: { name: rec?.ruleName } });
    // A rule that would confirm it again leaves it proposed: a person undid it.
    await call(rulesRoute.POST, "POST", "/api/reconciliation-rules", admin, { json: { name: "Again", min_score: 0 } });
    await runAutoConfirm({});
    expect((await matches()).find((m) => m.id === id)?.state).toBe("proposed");
    const again = await call(undoRoute.POST, "POST", path, treasurer, { params: { id } });
    expect(again.status).toBe(409);
    expect((again.body.details as { reason: string }).reason).toBe("already_undone");

    // Past 24 h: refused, the match stays confirmed.
    const oldId = old?.matchId ?? "";
    await db
      .update(reconciliationAutoConfirmations)
      .set({ confirmedAt: new Date(Date.now() - 25 * 3_600_000).toISOString() })
      .where(and(eq(reconciliationAutoConfirmations.matchId, oldId)));
    const late = await call(
      undoRoute.POST,
      "POST",
      `/api/treasury/reconciliation/matches/${oldId}/undo-auto-confirm`,
      treasurer,
      { params: { id: oldId } },
    );
    expect(late.status).toBe(409);
    expect((late.body.details as { reason: string }).reason).toBe("undo_window_passed");
    expect((await matches()).find((m) => m.id === oldId)?.state).toBe("confirmed");
    const unknown = randomUUID();
    expect(
      (
        await call(
          undoRoute.POST,
          "POST",
          `/api/treasury/reconciliation/matches/${unknown}/undo-auto-confirm`,
          treasurer,
          {
            params: { id: unknown },
          },
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await call(undoRoute.POST, "POST", `/api/treasury/reconciliation/matches/nope/undo-auto-confirm`, treasurer, {
          params: { id: "nope" },
        })
      ).status,
    ).toBe(400);
    await clearRules();
  }, 60_000);
});
