/**
 * Runs the reconciliation auto-confirm rules: every `proposed` match that meets an enabled rule (lib/auto-confirm/
 * rules.ts) is confirmed in the Treasury API on the rule's behalf, once.
 *
 * Crash safety (confirming is money-adjacent): each intended confirmation is first recorded in the dashboard DB
 * with a fresh Idempotency-Key (`pending`), then sent under that key; the record is marked `confirmed` together
 * with its audit entry. A run finds the pending records of any earlier run (a crash, an API that was down) and sends
 * them again under their recorded keys, so the API confirms each match once (it answers a repeat from its
 * idempotency store). A match that has a record is never picked again, so a match a person reopened (undo) stays
 * proposed. Runs of one process are serialised; runs of two processes may send the same record at once, which the
 * API answers once (the second gets 409 in_progress and is left pending for the next run).
 *
 * Audit: actor e-mail `rule:<name>` (no user id), action `reconciliation_match.confirm`, details
 * `{ auto_rule: { id, name } }`. The API's match records reviewer `rule:<name>`.
 */
import "server-only";
import { chunk as chunked } from "es-toolkit";
import { randomUUID } from "node:crypto";
import { AUDIT_ACTION } from "../audit-actions";
import { firstHoldingRule } from "../auto-confirm/rules";
import {
  listAutoRules,
  markConfirmed,
  markFailed,
  pendingConfirmations,
  recordedMatchIds,
  recordIntended,
  type AutoConfirmation,
  type IntendedConfirmation,
} from "../auto-confirm/store";
import type { ReconciliationMatch } from "@treasury/contract";
import { collectAll, TreasuryApiError, type CallContext } from "../treasury-client";
import { dashboardDb } from "../server/db";
import { logger } from "../server/log";
import { treasury } from "../server/treasury";
import { loadMatchSides } from "./queries/match-sides";

/** The audit actor of a rule's confirmation, e.g. `rule:Exact 100`. */
export const ruleActor = (name: string) => `rule:${name}`;

/** Most matches whose sides one lookup reads (the API's lookup limit). */
const SIDES_CHUNK = 100;

export interface AutoConfirmOptions {
  /** The matches to consider, when the caller has just read them (the review); else every match is read. */
  matches?: readonly ReconciliationMatch[];
  requestId?: string;
  /** Test hooks standing in for a crash: thrown errors stop the run at that point. */
  afterRecord?: (rows: readonly AutoConfirmation[]) => void | Promise<void>;
  afterSend?: (matchId: string) => void | Promise<void>;
}

export interface AutoConfirmOutcome {
  /** Match ids confirmed in this run (new or re-sent). */
  confirmed: string[];
  /** Match ids the API refused (kept as failed with the reason). */
  failed: string[];
  /** Match ids left pending (the API could not be reached; sent again by the next run). */
  pending: string[];
}

/** A refusal that will not change on a retry (4xx other than 408 / 429 and an idempotency key in progress). */
function isRefusal(err: unknown): err is TreasuryApiError {
  return (
    err instanceof TreasuryApiError &&
    err.status >= 400 &&
    err.status < 500 &&
    err.status !== 408 &&
    err.status !== 429 &&
    !(err.status === 409 && err.details.reason === "in_progress")
  );
}

/** Sends one recorded confirmation under its key; marks it and audits it. */
async function send(rec: AutoConfirmation, o: AutoConfirmOptions, out: AutoConfirmOutcome): Promise<void> {
  const db = await dashboardDb();
  const outcome: { replayed?: boolean } = {};
  const call = {
    requestId: o.requestId,
    idempotencyKey: rec.upstreamKey,
    priority: "background" as const,
    outcome,
    ...(rec.companyId ? { companyId: rec.companyId } : {}),
  };
  let match: ReconciliationMatch | null;
  try {
    match = await treasury().confirmMatch(call, rec.matchId, {
      reviewer: ruleActor(rec.ruleName).slice(0, 200),
      reason: `Confirmed by rule ${rec.ruleName}`.slice(0, 1000),
    });
  } catch (err) {
    if (isRefusal(err)) {
      await markFailed(db, rec.matchId, `${err.status} ${err.code}: ${err.message}`);
      out.failed.push(rec.matchId);
      logger.info({ matchId: rec.matchId, rule: rec.ruleName, status: err.status }, "auto-confirm refused by the API");
      return;
    }
    out.pending.push(rec.matchId);
    throw err;
  }
  await o.afterSend?.(rec.matchId);
  const marked = await markConfirmed(db, rec.matchId, match?.decided_at ?? new Date().toISOString(), {
    userId: null,
    userEmail: ruleActor(rec.ruleName),
    action: AUDIT_ACTION.matchConfirm,
    objectType: "reconciliation_match",
    objectId: rec.matchId,
    companyId: match?.company_id ?? rec.companyId,
    idempotencyKey: rec.upstreamKey,
    outcome: outcome.replayed ? "replayed" : "success",
    requestId: o.requestId ?? null,
    details: { auto_rule: { id: rec.ruleId, name: rec.ruleName } },
  });
  if (marked) out.confirmed.push(rec.matchId);
}

/** Proposals that an enabled rule confirms and that have no record yet, as records to write. */
async function intended(
  readMatches: () => Promise<readonly ReconciliationMatch[]>,
  requestId: string | undefined,
): Promise<IntendedConfirmation[]> {
  const db = await dashboardDb();
  const rules = (await listAutoRules(db)).filter((r) => r.enabled);
  // Without an enabled rule nothing is read from the API.
  if (rules.length === 0) return [];
  const matches = await readMatches();
  const lowest = Math.min(...rules.map((r) => r.min_score));
  const known = await recordedMatchIds(db);
  // One transaction or instruction is confirmed in one match at most: a side confirmed already rules its other
  // proposals out (the API would refuse them), and among candidates the first per side wins.
  const taken = new Set<string>(
    matches.filter((m) => m.state === "confirmed").flatMap((m) => [m.transaction_id, m.payment_instruction_id]),
  );
  const candidates = matches.filter(
    (m) =>
      m.state === "proposed" &&
      m.score >= lowest &&
      !known.has(m.id) &&
      !taken.has(m.transaction_id) &&
      !taken.has(m.payment_instruction_id),
  );
  const out: IntendedConfirmation[] = [];
  for (const chunk of chunked(candidates, SIDES_CHUNK)) {
    const sides = await loadMatchSides({ requestId, priority: "background" }, chunk);
    for (const m of chunk) {
      const ins = sides.instructions.get(m.payment_instruction_id) ?? null;
      const tx = sides.transactions.get(m.transaction_id) ?? null;
      const rule = firstHoldingRule(rules, { match: m, instruction: ins, transaction: tx });
      if (!rule || taken.has(m.transaction_id) || taken.has(m.payment_instruction_id)) continue;
      taken.add(m.transaction_id).add(m.payment_instruction_id);
      out.push({
        matchId: m.id,
        ruleId: rule.id,
        ruleName: rule.name,
        companyId: m.company_id ?? null,
        upstreamKey: randomUUID(),
      });
    }
  }
  return out;
}

async function runOnce(o: AutoConfirmOptions): Promise<AutoConfirmOutcome> {
  const db = await dashboardDb();
  const out: AutoConfirmOutcome = { confirmed: [], failed: [], pending: [] };
  const call: CallContext = { requestId: o.requestId, priority: "background" };
  const read = async () =>
    o.matches ??
    (await collectAll(treasury().listMatches({ ...call, cache: "no-store" }, { pageSize: 1000 }), { maxPages: 20 }));
  const recorded = await recordIntended(db, await intended(read, o.requestId));
  await o.afterRecord?.(recorded);
  // Every pending record, those of earlier runs first (oldest first), each under its recorded key.
  for (const rec of await pendingConfirmations(db)) await send(rec, o, out);
  return out;
}

const g = globalThis as typeof globalThis & { __autoConfirmRun?: Promise<AutoConfirmOutcome> };

/**
 * One run of the rules (see the module comment). A run already going in this process is awaited instead of a
 * second one started. Errors reaching the API stop the run (the records stay pending) and are thrown.
 */
export async function runAutoConfirm(o: AutoConfirmOptions = {}): Promise<AutoConfirmOutcome> {
  if (g.__autoConfirmRun) return g.__autoConfirmRun;
  const run = runOnce(o).finally(() => {
    if (g.__autoConfirmRun === run) g.__autoConfirmRun = undefined;
  });
  g.__autoConfirmRun = run;
  return run;
}
