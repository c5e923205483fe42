/**
 * The reconciliation review: matches across the user's
 * companies with the instruction and the transaction side by side. Score
 * band and date are filters of this view (the spec names only `status` for
 * matches), applied here after the spec read so that nothing unknown is
 * sent upstream. Only the page shown is enriched with its instructions and
 * transactions, in bulk (match-sides.ts). A cold page view costs
 * three upstream reads with the lookups (matches, instructions, transactions).
 */
import "server-only";
import { z } from "zod";
import { AUDIT_ACTION } from "../../audit-actions";
import { IsoDate, Uuid, type ReconciliationMatch } from "@treasury/contract";
import { listAudit } from "../../db/audit";
import { collectAll } from "../../treasury-client";
import type { BffContext } from "../context";
import { dashboardDb } from "../../server/db";
import { treasury } from "../../server/treasury";
import { crossCompanyCall, visibleTo } from "./cross-company";
import { decisionOf } from "./payment-views";
import type { Decision } from "../../views/payments";
import type { MatchReviewPage, MatchReviewRow } from "../../views/reconciliation";
import {
  autoConfirmationsOf,
  autoConfirmFailuresOf,
  autoConfirmOnRead,
  type AutoConfirmationView,
  type AutoConfirmFailureView,
} from "./auto-confirm-views";
import { loadMatchSides, lookupInstructionsInBulk } from "./match-sides";
import { exactSummary, isExact } from "../exact-confirm";
import { MAX_BULK_CONFIRM } from "../bulk-confirm";

export type { MatchReviewRow };

/** Score bands of the review filter: high ≥ 90, medium 70–89, low < 70. */
export const SCORE_BANDS = { high: [90, 100], medium: [70, 89], low: [0, 69] } as const;

export const MatchReviewQuery = z.object({
  tab: z.enum(["proposed", "decided"]).default("proposed"),
  band: z.enum(["high", "medium", "low"]).optional(),
  from_date: IsoDate.optional(),
  to_date: IsoDate.optional(),
  page: z.coerce.number().int().min(1).max(10_000).optional(),
  /** One company's matches; it must be one of the user's (403 otherwise, as every cross-company list answers). */
  company_id: Uuid.optional(),
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

/**
 * One page of the review, newest first; on the "to review" tab also `exact`: the exact proposals (score 100) the
 * filters hold, with their totals per currency, for "Confirm all exact matches" (docs/guides/reconciliation.md).
 */
export async function listMatchReview(ctx: BffContext, q: z.output<typeof MatchReviewQuery>): Promise<MatchReviewPage> {
  const call = crossCompanyCall(ctx, q.company_id, "read");
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
    .filter((m) => !q.company_id || m.company_id === q.company_id)
    .filter((m) => !band || (m.score >= band[0] && m.score <= band[1]))
    .filter((m) => (!q.from_date || dayOf(m, q.tab) >= q.from_date) && (!q.to_date || dayOf(m, q.tab) <= q.to_date))
    // Newest first by the instant (the latest decisions lead the decided tab), then the best score.
    .sort((a, b) => instantOf(b, q.tab).localeCompare(instantOf(a, q.tab)) || b.score - a.score);
  const page = q.page ?? 1;
  const slice = rows.slice((page - 1) * MATCH_REVIEW_PAGE_SIZE, page * MATCH_REVIEW_PAGE_SIZE);
  const names = new Map(ctx.companies.map((c) => [c.id, c.name]));
  // The exact proposals' totals need their instructions; those not on this page are read in one bulk lookup (none
  // without the lookup: then only the page's count to the totals), keeping a cold page within its upstream budget.
  const exact = q.tab === "proposed" ? rows.filter(isExact).slice(0, MAX_BULK_CONFIRM) : [];
  const onPage = new Set(slice.map((m) => m.payment_instruction_id));
  const offPage = [...new Set(exact.map((m) => m.payment_instruction_id).filter((id) => !onPage.has(id)))];
  const [decisions, sides, autos, failures, exactInstructions] = await Promise.all([
    q.tab === "decided" ? decisionsOf(slice.map((m) => m.id)) : Promise.resolve(new Map<string, Decision>()),
    loadMatchSides(call, slice),
    q.tab === "decided" ? autoConfirmationsOf(slice) : Promise.resolve(new Map<string, AutoConfirmationView>()),
    q.tab === "proposed" ? autoConfirmFailuresOf(slice) : Promise.resolve(new Map<string, AutoConfirmFailureView>()),
    lookupInstructionsInBulk(call, offPage),
  ]);
  const items = slice.map((m): MatchReviewRow => ({
    match: m,
    company_name: m.company_id ? (names.get(m.company_id) ?? "") : "",
    instruction: sides.instructions.get(m.payment_instruction_id) ?? null,
    transaction: sides.transactions.get(m.transaction_id) ?? null,
    decision: decisions.get(m.id) ?? null,
    ...(autos.has(m.id) ? { auto_confirmation: autos.get(m.id) } : {}),
    ...(failures.has(m.id) ? { auto_confirm_failure: failures.get(m.id) } : {}),
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
    ...(q.tab === "proposed"
      ? { exact: exactSummary(rows, new Map([...sides.instructions, ...exactInstructions])) }
      : {}),
  };
}
