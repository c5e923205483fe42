/**
 * The reopen extension of reconciliation matches: a `confirmed` match goes back to `proposed` within
 * {@link REOPEN_WINDOW_HOURS} hours of its confirmation (an automatic confirmation the treasurer undoes, or a
 * confirmation by mistake). The decision it undoes is kept in `reconciliation_match_reopenings` with who reopened
 * it and why, and `reconciliation.match.updated` is emitted, in one transaction.
 */
import { eq } from "drizzle-orm";
import type { MatchDecision, ReconciliationMatch } from "@treasury/contract/reconciliation";
import type { Db } from "../client";
import { reconciliationMatchReopenings } from "../schema";
import { ApiError, stateConflict } from "../../lib/errors";
import type { DataScope } from "../../lib/scope";
import { matchRow, updateMatch } from "./reconciliation";
import { newId } from "../../lib/secrets";

/** How long after its confirmation a match may be reopened, in hours. */
export const REOPEN_WINDOW_HOURS = 24;

export interface Reopen extends MatchDecision {
  /** Internal id of the OAuth client making the call. */
  clientId: string;
}

/**
 * Puts a confirmed match back to `proposed`, clearing its decision (kept in the reopenings audit).
 * @param now the instant of the call (tests pass one; default the clock)
 * @throws 404 outside the scope; 409 `conflict` from a state other than `confirmed` (details.state, allowed) or
 *   past the window (details.reason `reopen_window_passed`, details.confirmed_at, details.window_hours).
 */
export async function reopenMatch(
  db: Db,
  scope: DataScope,
  id: string,
  r: Reopen,
  now: Date = new Date(),
): Promise<ReconciliationMatch> {
  return db.transaction(async (tx) => {
    const row = await matchRow(tx, scope, id, { forUpdate: true });
    if (row.state !== "confirmed" || !row.decidedAt)
      throw stateConflict("reconciliation match", row.state, ["confirmed"], "reopen");
    const confirmedAt = new Date(row.decidedAt);
    if (now.getTime() - confirmedAt.getTime() > REOPEN_WINDOW_HOURS * 3_600_000)
      throw new ApiError(
        "conflict",
        `A match can be reopened only within ${REOPEN_WINDOW_HOURS} hours of its confirmation`,
        {
          reason: "reopen_window_passed",
          state: row.state,
          confirmed_at: confirmedAt.toISOString(),
          window_hours: REOPEN_WINDOW_HOURS,
        },
      );
    await tx.insert(reconciliationMatchReopenings).values({
      id: newId(),
      matchId: row.id,
      tenantId: row.tenantId,
      companyId: row.companyId,
      reopenedAt: now.toISOString(),
      clientId: r.clientId,
      reviewer: r.reviewer ?? null,
      reason: r.reason ?? null,
      confirmedAt: row.decidedAt,
      confirmedByClientId: row.decidedByClientId,
      confirmedReviewer: row.reviewer,
      confirmedReason: row.decisionReason,
    });
    return updateMatch(tx, row.id, {
      state: "proposed",
      decidedAt: null,
      decidedByClientId: null,
      reviewer: null,
      decisionReason: null,
    });
  });
}

/** The reopenings of a match, oldest first (the audit of the extension). */
export async function listReopenings(db: Db, matchId: string) {
  return db
    .select()
    .from(reconciliationMatchReopenings)
    .where(eq(reconciliationMatchReopenings.matchId, matchId))
    .orderBy(reconciliationMatchReopenings.reopenedAt);
}
