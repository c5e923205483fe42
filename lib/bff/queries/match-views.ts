/**
 * The reconciliation review: matches across the user's
 * companies with the instruction and the transaction side by side. Score
 * band and date are filters of this view (the spec names only `status` for
 * matches), applied here after the spec read so that nothing unknown is
 * sent upstream. Only the page shown is enriched with its instructions and
 * transactions, in bulk: one by-id lookup each when the API offers them
 * (extensions, read from its OpenAPI document), else one read per distinct
 * id with at most `SIDE_READS_IN_FLIGHT` in flight. A cold page view costs
 * three upstream reads with the lookups (matches, instructions, transactions).
 */
import "server-only";
import { z } from "zod";
import { AUDIT_ACTION } from "../../audit-actions";
import { IsoDate, type PaymentInstruction, type ReconciliationMatch, type Transaction } from "../../contract";
import { listAudit } from "../../db/audit";
import { collectAll, TreasuryApiError, type CallContext } from "../../treasury-client";
import { capabilities } from "../capabilities";
import type { BffContext } from "../context";
import { dashboardDb } from "../../server/db";
import type { BffPage } from "../inputs";
import { treasury } from "../../server/treasury";
import { crossCompanyCall, visibleTo } from "./cross-company";
import { decisionOf } from "./payment-views";
import type { Decision } from "../../views/payments";
import type { MatchReviewRow } from "../../views/reconciliation";
import { mapLimit } from "./map-limit";
import { autoConfirmationsOf, autoConfirmOnRead, type AutoConfirmationView } from "./auto-confirm-views";

export type { MatchReviewRow };

/** Score bands of the review filter: high ≥ 90, medium 70–89, low < 70. */
export const SCORE_BANDS = { high: [90, 100], medium: [70, 89], low: [0, 69] } as const;

export const MatchReviewQuery = z.object({
  tab: z.enum(["proposed", "decided"]).default("proposed"),
  band: z.enum(["high", "medium", "low"]).optional(),
  from_date: IsoDate.optional(),
  to_date: IsoDate.optional(),
  page: z.coerce.number().int().min(1).max(10_000).optional(),
});

export const MATCH_REVIEW_PAGE_SIZE = 25;

/** Audit actions of the match decisions (the BFF routes' `audit.action`). */
export const MATCH_DECISION_ACTIONS = [AUDIT_ACTION.matchConfirm, AUDIT_ACTION.matchReject] as const;

/** The instant a match is listed by: when it was decided (decided tab) or proposed. */
function instantOf(m: ReconciliationMatch, tab: "proposed" | "decided"): string {
  return (tab === "decided" ? m.decided_at : null) ?? m.created_at ?? "";
}

/** The day a match counts for in the date filter. */
function dayOf(m: ReconciliationMatch, tab: "proposed" | "decided"): string {
  return instantOf(m, tab).slice(0, 10);
}

/** Reads in flight at once when the sides are read one by one (an API without the lookups). */
export const SIDE_READS_IN_FLIGHT = 4;

/** The instructions and transactions of a page of matches, by id; a side that could not be read is absent. */
export interface MatchSides {
  instructions: Map<string, PaymentInstruction>;
  transactions: Map<string, Transaction>;
}

/** One read per id, a bounded number in flight; a failed read leaves that id out (the row shows the side as missing). */
async function readEach<T>(ids: readonly string[], read: (id: string) => Promise<T>): Promise<Map<string, T>> {
  const got = await mapLimit(ids, SIDE_READS_IN_FLIGHT, (id) => read(id).catch(() => null));
  return new Map(ids.flatMap((id, i) => (got[i] ? [[id, got[i]] as const] : [])));
}

/**
 * The rows of a lookup by id; an API that does not know the lookup after all (404 / 400: the capability was read
 * before a downgrade) is read one by one instead; any other failure leaves the sides missing rather than failing the
 * page, as a failed single read does.
 */
export async function lookup<T extends { id: string }>(
  ids: readonly string[],
  bulk: ((ids: readonly string[]) => Promise<T[]>) | null,
  single: (id: string) => Promise<T>,
): Promise<Map<string, T>> {
  if (ids.length === 0) return new Map();
  if (!bulk) return readEach(ids, single);
  try {
    return new Map((await bulk(ids)).map((row) => [row.id, row]));
  } catch (err) {
    if (err instanceof TreasuryApiError && (err.status === 404 || err.status === 400)) return readEach(ids, single);
    return new Map();
  }
}

/**
 * Loads the instruction and the transaction of every match in `matches` in bulk (at most 100 matches: a page of the
 * review). `call` carries no company, so one lookup spans every company the client sees; the ids come from matches
 * already narrowed to the user's companies. Per-id fallback reads use each match's company.
 */
export async function loadMatchSides(
  call: CallContext,
  matches: readonly Pick<ReconciliationMatch, "payment_instruction_id" | "transaction_id" | "company_id">[],
): Promise<MatchSides> {
  const caps = await capabilities();
  const companyOf = new Map<string, string | undefined>();
  for (const m of matches) {
    companyOf.set(m.payment_instruction_id, m.company_id);
    companyOf.set(m.transaction_id, m.company_id);
  }
  const single = (id: string): CallContext => ({ ...call, companyId: companyOf.get(id) ?? call.companyId });
  const instructionIds = [...new Set(matches.map((m) => m.payment_instruction_id))];
  const transactionIds = [...new Set(matches.map((m) => m.transaction_id))];
  const api = treasury();
  const [instructions, transactions] = await Promise.all([
    lookup(
      instructionIds,
      caps.has("payments.instructions_lookup") ? (ids) => api.lookupInstructions(call, ids) : null,
      (id) => api.getInstruction(single(id), id),
    ),
    lookup(
      transactionIds,
      caps.has("ledger.transactions_lookup") ? (ids) => api.lookupTransactions(call, ids) : null,
      (id) => api.getTransaction(single(id), id),
    ),
  ]);
  return { instructions, transactions };
}

/** The first recorded dashboard decision per match id (a replayed retry leaves a second entry). */
async function decisionsOf(matchIds: readonly string[]): Promise<Map<string, Decision>> {
  if (matchIds.length === 0) return new Map();
  const db = await dashboardDb();
  const events = (
    await Promise.all(
      [...MATCH_DECISION_ACTIONS, AUDIT_ACTION.matchReopen].map((action) =>
        listAudit(db, { companyIds: null, action, objectIds: matchIds, limit: 500 }),
      ),
    )
  ).flat();
  const out = new Map<string, Decision>();
  for (const e of events.sort((a, b) => a.at.localeCompare(b.at))) {
    if (!e.objectId) continue;
    // A reopened match was decided again after it: the decision before the reopen no longer stands.
    if (e.action === AUDIT_ACTION.matchReopen) out.delete(e.objectId);
    else if (!out.has(e.objectId)) out.set(e.objectId, decisionOf(e));
  }
  return out;
}

/** One page of the review, newest first. */
export async function listMatchReview(
  ctx: BffContext,
  q: z.output<typeof MatchReviewQuery>,
): Promise<BffPage<MatchReviewRow>> {
  const call = crossCompanyCall(ctx, undefined, "read");
  const states: readonly string[] = q.tab === "proposed" ? ["proposed"] : ["confirmed", "rejected"];
  // Read unfiltered and keep the tab's states here: the client's `status` filter is refused by the local API,
  // which names this filter `state` (reported to the lead); no unknown filter is sent.
  let all = await collectAll(treasury().listMatches(call, { pageSize: 1000 }), { maxPages: 20 });
  // The auto-confirm rules run on what was just read; when they confirmed any, the list is read again.
  if ((await autoConfirmOnRead(all, ctx.requestId)) > 0)
    all = await collectAll(treasury().listMatches({ ...call, cache: "no-store" }, { pageSize: 1000 }), {
      maxPages: 20,
    });
  const band = q.band ? SCORE_BANDS[q.band] : null;
  const rows = all
    .filter((m) => states.includes(m.state))
    .filter(visibleTo(ctx))
    .filter((m) => !band || (m.score >= band[0] && m.score <= band[1]))
    .filter((m) => (!q.from_date || dayOf(m, q.tab) >= q.from_date) && (!q.to_date || dayOf(m, q.tab) <= q.to_date))
    // Newest first by the instant (the latest decisions lead the decided tab), then the best score.
    .sort((a, b) => instantOf(b, q.tab).localeCompare(instantOf(a, q.tab)) || b.score - a.score);
  const page = q.page ?? 1;
  const slice = rows.slice((page - 1) * MATCH_REVIEW_PAGE_SIZE, page * MATCH_REVIEW_PAGE_SIZE);
  const names = new Map(ctx.companies.map((c) => [c.id, c.name]));
  const [decisions, sides, autos] = await Promise.all([
    q.tab === "decided" ? decisionsOf(slice.map((m) => m.id)) : Promise.resolve(new Map<string, Decision>()),
    loadMatchSides(call, slice),
    q.tab === "decided" ? autoConfirmationsOf(slice) : Promise.resolve(new Map<string, AutoConfirmationView>()),
  ]);
  const items = slice.map((m): MatchReviewRow => ({
    match: m,
    company_name: m.company_id ? (names.get(m.company_id) ?? "") : "",
    instruction: sides.instructions.get(m.payment_instruction_id) ?? null,
    transaction: sides.transactions.get(m.transaction_id) ?? null,
    decision: decisions.get(m.id) ?? null,
    ...(autos.has(m.id) ? { auto_confirmation: autos.get(m.id) } : {}),
  }));
  const totalPages = Math.max(1, Math.ceil(rows.length / MATCH_REVIEW_PAGE_SIZE));
  return {
    items,
    count: rows.length,
    page,
    page_size: MATCH_REVIEW_PAGE_SIZE,
    total_pages: totalPages,
    has_next: page < totalPages,
    has_previous: page > 1,
  };
}
