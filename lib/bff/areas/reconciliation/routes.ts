/**
 * The reconciliation area's BFF routes (docs/guides/reconciliation.md), declared against ./endpoints.ts: the review
 * and its decisions (single, bulk, exact, and their undo), the unmatched view with its manual match, and the admin's
 * auto-confirm rules (docs/architecture.md#the-bff-declared-per-area).
 */
import "server-only";
import { AutoRuleInput } from "@/lib/auto-confirm/rules";
import { AUDIT_ACTION } from "@/lib/audit-actions";
import { BulkConfirmBody, bulkConfirm } from "@/lib/bff/bulk-confirm";
import { matchDecisionRoute } from "@/lib/bff/decision-routes";
import { ConfirmExactBody, confirmExact, undoConfirmation, UNDO_CONFIRM_MINUTES } from "@/lib/bff/exact-confirm";
import { CompanyOverride, MatchesQuery } from "@/lib/bff/inputs";
import {
  addAutoRule,
  autoRulesView,
  changeAutoRule,
  removeAutoRule,
  undoAutoConfirmation,
} from "@/lib/bff/queries/auto-rules";
import { MatchReviewQuery, listMatchReview } from "@/lib/bff/queries/match-views";
import { listMatches } from "@/lib/bff/queries/reconciliation";
import {
  CandidatesQuery,
  ManualMatchBody,
  UnmatchedViewQuery,
  createManualMatch,
  listCandidates,
  listUnmatchedView,
} from "@/lib/bff/queries/unmatched";
import { declareRoute, defineRoutes, IdParams } from "@/lib/bff/route";
import { adminItems } from "../admin-items";
import { readByQuery, type ReadAccess } from "../read-routes";
import { reconciliationEndpoints as e } from "./endpoints";

const rules = adminItems(
  { list: e.rules, add: e.addRule, change: e.changeRule, remove: e.removeRule },
  {
    permission: "reconciliation.rules.manage",
    objectType: "reconciliation_rule",
    body: AutoRuleInput,
    knownCompany: true,
  },
  { view: autoRulesView, add: addAutoRule, change: changeAutoRule, remove: removeAutoRule },
);

/** The review's reads: across the user's companies (`reconciliation.read`). */
const read: ReadAccess = { permission: "reconciliation.read", company: "none" };

export const reconciliationRoutes = defineRoutes(e, {
  /** GET — one page of the reconciliation review with instruction and transaction per match. */
  review: readByQuery(e.review, { ...read, query: MatchReviewQuery }, listMatchReview),

  /** GET /reconciliation/matches — across the user's companies. */
  matches: readByQuery(e.matches, { ...read, query: MatchesQuery }, listMatches),

  /** POST /reconciliation/matches/{id}/confirm (treasurer). */
  confirm: matchDecisionRoute(e.confirm, "confirm"),

  /** POST /reconciliation/matches/{id}/reject (treasurer), with an optional reason. */
  reject: matchDecisionRoute(e.reject, "reject"),

  /**
   * POST /api/treasury/reconciliation/matches/{id}/undo-confirm (treasurer) — the review's undo toast: reopens a match
   * the signed-in user confirmed here within the last 15 minutes (back to `proposed`); 404 when they did not confirm
   * it, 409 past the window or when the API cannot reopen. Audited as `reconciliation_match.reopen`.
   * docs/guides/reconciliation.md#exact-matches
   */
  undoConfirm: declareRoute(
    e.undoConfirm,
    {
      permission: "reconciliation.write",
      company: "none",
      params: IdParams,
      audit: { action: "reconciliation_match.reopen", objectType: "reconciliation_match" },
    },
    async (ctx) => {
      const r = await undoConfirmation(ctx, ctx.params.id);
      ctx.audit.companyId = r.companyId;
      ctx.audit.details = { undo: "confirmation", confirmed_at: r.confirmedAt, window_minutes: UNDO_CONFIRM_MINUTES };
      return { id: ctx.params.id, state: "proposed", undone: true };
    },
  ),

  /**
   * POST /api/treasury/reconciliation/matches/{id}/undo-auto-confirm (treasurer) — reopens a match an auto-confirm
   * rule confirmed, within 24 h; 404 when no rule confirmed it, 409 past the window or when the API cannot reopen.
   * Audited as `reconciliation_match.reopen` naming the rule.
   */
  undoAutoConfirm: declareRoute(
    e.undoAutoConfirm,
    {
      permission: "reconciliation.write",
      company: "none",
      params: IdParams,
      audit: { action: "reconciliation_match.reopen", objectType: "reconciliation_match" },
    },
    async (ctx) => {
      const { record, companyId } = await undoAutoConfirmation(ctx, ctx.params.id);
      ctx.audit.companyId = companyId;
      ctx.audit.details = { auto_rule: { id: record.ruleId, name: record.ruleName }, confirmed_at: record.confirmedAt };
      return { id: ctx.params.id, state: "proposed", undone: true };
    },
  ),

  /**
   * POST { ids: uuid[1..100] } → { results: [{ id, status: confirmed | refused, ... }], confirmed, refused }
   * (treasurer). One audit entry per confirmed match; a refusal is reported for its match only.
   */
  bulkConfirm: declareRoute(
    e.bulkConfirm,
    { permission: "reconciliation.write", company: "none", query: CompanyOverride, body: BulkConfirmBody },
    (ctx) => bulkConfirm(ctx),
  ),

  /**
   * POST { ids: uuid[1..100] } → { results: [{ id, status: confirmed | refused, ... }], confirmed, refused }
   * (treasurer): "Confirm all exact matches". Each id is re-read first and confirmed only while it is a proposal
   * scoring 100 (else refused `not_exact` / `not_found`); idempotent under the Idempotency-Key; one audit entry per
   * confirmed match. docs/guides/reconciliation.md#exact-matches
   */
  confirmExact: declareRoute(
    e.confirmExact,
    { permission: "reconciliation.write", company: "none", query: CompanyOverride, body: ConfirmExactBody },
    (ctx) => confirmExact(ctx),
  ),

  /**
   * GET ?kind=instruction|transaction&age=0-2|3-7|8-30|31+&company_id&q&sort&page — one page of settled instructions
   * or debit transactions without a confirmed match, aged, and whether a manual match is possible.
   */
  unmatched: readByQuery(e.unmatched, { ...read, query: UnmatchedViewQuery }, listUnmatchedView),

  /**
   * GET ?for_kind&company_id&currency&amount&date&q — the unmatched counterparts of one item (the other kind, same
   * company and currency, near in amount and date or found by the search), closest first (treasurer).
   */
  candidates: readByQuery(
    e.candidates,
    { permission: "reconciliation.write", company: "none", query: CandidatesQuery },
    listCandidates,
  ),

  /**
   * POST { instruction_id, transaction_id, company_id, note? } → 201 the confirmed match (treasurer). Logged as a
   * confirmation of the match (details.manual, the two sides and the note as the reason), which the decided tab reads.
   */
  manualMatch: declareRoute(
    e.manualMatch,
    {
      permission: "reconciliation.write",
      company: "none",
      body: ManualMatchBody,
      status: 201,
      audit: { action: AUDIT_ACTION.matchConfirm, objectType: "reconciliation_match" },
    },
    async (ctx) => {
      const match = await createManualMatch(ctx, ctx.body);
      ctx.audit.companyId = match.company_id ?? ctx.body.company_id;
      ctx.audit.details = {
        manual: true,
        instruction_id: ctx.body.instruction_id,
        transaction_id: ctx.body.transaction_id,
        ...(ctx.body.note ? { reason: ctx.body.note } : {}),
      };
      return match;
    },
  ),

  /** GET /api/reconciliation-rules — the auto-confirm rules in the order tried, the companies, `can_undo` (admin). */
  rules: rules.list,

  /**
   * POST /api/reconciliation-rules — 201: a new rule (fields: lib/auto-confirm/rules.ts `AutoRuleInput`); 400 naming
   * the field; 409 naming `name` when another rule has it. Audited with the rule as created.
   */
  addRule: rules.add,

  /** PUT /api/reconciliation-rules/{id} — replaces a rule (name, conditions, enabled); audited before / after. */
  changeRule: rules.change,

  /** DELETE /api/reconciliation-rules/{id} — 204; its past confirmations stay (they name it). Audited. */
  removeRule: rules.remove,
});
