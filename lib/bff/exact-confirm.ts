/**
 * Reconciliation at a glance (docs/guides/reconciliation.md#exact-matches): the proposals that score 100 ("exact
 * matches") confirmed in one click, all of them at once, and the undo of a person's own confirmation.
 *
 * - `exactSummary`: how many exact proposals a filtered review holds and their instruction totals per currency.
 * - `confirmExact`: confirms the named proposals after re-reading each from the API (only a proposal still
 *   `proposed` with score 100 is confirmed; anything else is refused on its own line), idempotent under the
 *   request's Idempotency-Key, one audit entry per confirmed match (details `{ exact: true }`).
 * - `undoConfirmation`: reopens a match the signed-in user confirmed through the dashboard within
 *   `UNDO_CONFIRM_MINUTES` (the undo toast); the API's reopen extension puts it back to `proposed`.
 */
import "server-only";
import Decimal from "decimal.js";
import type { z } from "zod";
import type { PaymentInstruction, ReconciliationMatch } from "@treasury/contract";
import type { ExactSummary } from "../views/reconciliation";
import { listAudit } from "../db/audit";
import { dashboardDb } from "../server/db";
import { treasury } from "../server/treasury";
import { AUDIT_ACTION } from "../audit-actions";
import { collectAll, TreasuryApiError, type WriteContext } from "../treasury-client";
import { capabilities } from "./capabilities";
import type { BffContext, WriteScope } from "./context";
import { BffError } from "./errors";
import { derivedIdempotencyKey } from "./idempotency";
import type { RouteContext } from "./route";
import { BulkConfirmBody, confirmEach, MAX_BULK_CONFIRM, type BulkConfirmResult } from "./bulk-confirm";
import { crossCompanyCall, visibleTo } from "./queries/cross-company";

/** The score of an exact match (every scoring rule agreed). */
export const EXACT_SCORE = 100;

/** How long after confirming a match its confirmer may undo it from the review, in minutes. */
export const UNDO_CONFIRM_MINUTES = 15;

/** True when `m` is a proposal every scoring rule agreed on. */
export const isExact = (m: Pick<ReconciliationMatch, "state" | "score">) =>
  m.state === "proposed" && m.score === EXACT_SCORE;

/**
 * The exact proposals among `matches` (already filtered and sorted by the review) and their totals: `instructions`
 * gives each one's amount (a proposal whose instruction could not be read counts, but adds to no total).
 */
export function exactSummary(
  matches: readonly ReconciliationMatch[],
  instructions: ReadonlyMap<string, Pick<PaymentInstruction, "amount" | "currency">>,
): ExactSummary {
  const exact = matches.filter(isExact);
  const first = exact.slice(0, MAX_BULK_CONFIRM);
  const sums = new Map<string, Decimal>();
  for (const m of first) {
    const i = instructions.get(m.payment_instruction_id);
    if (i) sums.set(i.currency, (sums.get(i.currency) ?? new Decimal(0)).plus(i.amount));
  }
  return {
    ids: first.map((m) => m.id),
    count: exact.length,
    totals: [...sums.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, total]) => ({ currency, total: total.toFixed(2) })),
  };
}

/** Body of "Confirm all exact matches": the ids the user was shown (1–100, distinct), as the bulk confirm's. */
export const ConfirmExactBody = BulkConfirmBody;

/** Every match the user may see, read fresh from the API (no cache: the re-check must see the current state). */
async function currentMatches(
  ctx: BffContext,
  companyId: string | undefined,
): Promise<Map<string, ReconciliationMatch>> {
  const call = { ...crossCompanyCall(ctx, companyId, "read"), cache: "no-store" as const };
  const all = await collectAll(treasury().listMatches(call, { pageSize: 1000 }), { maxPages: 20 });
  return new Map(all.filter(visibleTo(ctx)).map((m) => [m.id, m]));
}

/**
 * Confirms the named exact proposals. Each is re-read first: unknown or not visible → refused 404 `not_found`;
 * no longer proposed or not scoring 100 → refused 409 `not_exact` (nothing sent upstream). The others go through
 * `confirmEach` (derived Idempotency-Keys: a retried request confirms nothing twice).
 * @returns a result per id in order, and the counts
 */
export async function confirmExact(
  ctx: RouteContext<unknown, { company_id?: string }, z.output<typeof ConfirmExactBody>>,
): Promise<{ results: BulkConfirmResult[]; confirmed: number; refused: number }> {
  const now = await currentMatches(ctx, ctx.query.company_id);
  // A retry after success finds its matches confirmed already: those were confirmed by this request's key,
  // and confirming them again under the same derived key replays the API's answer.
  const replayable = await confirmedUnderKey(ctx, ctx.body.ids);
  return confirmEach(
    ctx,
    ctx.body.ids,
    (id): BulkConfirmResult | null => {
      const m = now.get(id);
      if (!m)
        return {
          id,
          status: "refused",
          error: "not_found",
          message: "This match does not exist or is not visible to you.",
          http_status: 404,
        };
      if (isExact(m) || replayable.has(id)) return null;
      return {
        id,
        status: "refused",
        error: "not_exact",
        message:
          m.state === "proposed"
            ? `Its score is ${m.score}, not an exact match: review it on its own.`
            : `It is ${m.state} already.`,
        http_status: 409,
      };
    },
    { bulk: true, exact: true },
  );
}

/** The ids among `ids` this user confirmed under this request's derived keys (the request is a retry). */
async function confirmedUnderKey(ctx: WriteScope, ids: readonly string[]): Promise<Set<string>> {
  const events = await listAudit(await dashboardDb(), {
    companyIds: null,
    action: AUDIT_ACTION.matchConfirm,
    objectIds: ids,
    limit: 500,
  });
  return new Set(
    events
      .filter(
        (e) =>
          e.userId === ctx.user.id &&
          e.objectId !== null &&
          e.idempotencyKey === derivedIdempotencyKey(e.objectId, ctx.write.idempotencyKey),
      )
      .flatMap((e) => (e.objectId ? [e.objectId] : [])),
  );
}

const alreadyProposed = (err: unknown) =>
  err instanceof TreasuryApiError && err.status === 409 && err.details.state === "proposed";

/**
 * Undoes the signed-in user's own confirmation of `matchId` (the review's undo toast): allowed when their latest
 * dashboard confirmation of it is at most `UNDO_CONFIRM_MINUTES` old; the API reopens the match (back to
 * `proposed`) under the request's Idempotency-Key; a match already proposed again counts as undone.
 * @returns when the confirmation was made and the match's company (for the audit entry)
 * @throws BffError 404 when this user has no dashboard confirmation of the match; 409 `conflict` with details.reason
 *   `undo_window_passed` or `reopen_unavailable` (the API lacks the reopen extension).
 */
export async function undoConfirmation(
  ctx: WriteScope,
  matchId: string,
  now: Date = new Date(),
): Promise<{ confirmedAt: string; companyId: string | null }> {
  const events = await listAudit(await dashboardDb(), {
    companyIds: null,
    action: AUDIT_ACTION.matchConfirm,
    objectIds: [matchId],
    limit: 20,
  });
  // The latest confirmation stands; it must be this user's (never undo someone else's later confirmation).
  const latest = events.find((e) => e.outcome === "success" || e.outcome === "replayed");
  const mine = latest?.userId === ctx.user.id ? latest : undefined;
  if (!mine || !visibleTo(ctx)({ company_id: mine.companyId ?? undefined }))
    throw new BffError("not_found", "You have not confirmed this match here, so there is nothing to undo.");
  const until = new Date(new Date(mine.at).getTime() + UNDO_CONFIRM_MINUTES * 60_000);
  if (now > until)
    throw new BffError(
      "conflict",
      `A confirmation can be undone within ${UNDO_CONFIRM_MINUTES} minutes only; reject or correct it in the bank's records instead.`,
      { reason: "undo_window_passed", until: until.toISOString() },
    );
  if (!(await capabilities()).has("reconciliation.reopen"))
    throw new BffError("conflict", "The Treasury API cannot reopen a confirmed match, so the confirmation stays.", {
      reason: "reopen_unavailable",
    });
  const call: WriteContext = { ...ctx.write, ...(mine.companyId ? { companyId: mine.companyId } : {}) };
  try {
    await treasury().reopenMatch(call, matchId, { reviewer: ctx.user.email, reason: "Undo of my confirmation" });
  } catch (err) {
    if (!alreadyProposed(err)) throw err;
  }
  return { confirmedAt: mine.at, companyId: mine.companyId };
}
