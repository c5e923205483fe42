/**
 * Reconciliation match repository (docs/treasury-api.md#reconciliation;
 * docs/architecture.md#states-and-transitions). Functions `(db, scope, params)` with the scope in every `where`.
 * "One transaction is never confirmed against two instructions":
 * checked here under row locks and guaranteed by the partial unique indexes
 * `reconciliation_matches_confirmed_tx` / `_ins`, whose violation in a race
 * is answered 409 too.
 */
import { and, desc, eq, ne, or, type SQL } from "drizzle-orm";
import type { MatchDecision, MatchState, ReconciliationMatch } from "@treasury/contract/reconciliation";
import type { Db, DbOrTx } from "../client";
import { reconciliationMatches } from "../schema";
import { toMatch } from "../../domain/matching";
import { ApiError, notFound, stateConflict } from "../../lib/errors";
import { scopeWhere, type DataScope } from "../../lib/scope";
import { enqueueEvents } from "../../webhooks/outbox";
import { isUniqueViolation } from "@treasury/contract/sql/errors";
import { mappedPage, type Page } from "./paging";

export interface MatchFilter {
  state?: MatchState;
  transactionId?: string;
  instructionId?: string;
}

export async function listMatches(db: Db, scope: DataScope, f: MatchFilter, page: Page, withCount: boolean) {
  const conds: SQL[] = scopeWhere(scope, reconciliationMatches.tenantId, reconciliationMatches.companyId);
  if (f.state) conds.push(eq(reconciliationMatches.state, f.state));
  if (f.transactionId) conds.push(eq(reconciliationMatches.transactionId, f.transactionId));
  if (f.instructionId) conds.push(eq(reconciliationMatches.paymentInstructionId, f.instructionId));
  return mappedPage(
    db,
    reconciliationMatches,
    conds,
    [desc(reconciliationMatches.createdAt), desc(reconciliationMatches.id)],
    page,
    withCount,
    toMatch,
  );
}

export async function getMatch(db: Db, scope: DataScope, id: string): Promise<ReconciliationMatch> {
  return toMatch(await matchRow(db, scope, id));
}

/**
 * The row of match `id` inside the caller's `scope` (docs/treasury-api.md#reconciliation), read as it stands or,
 * with `forUpdate` inside a transaction, locked (`SELECT … FOR UPDATE`) until the transaction ends.
 * @throws 404 `not_found` when no match `id` lies inside the scope
 */
export async function matchRow(
  db: DbOrTx,
  scope: DataScope,
  id: string,
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<typeof reconciliationMatches.$inferSelect> {
  const query = db
    .select()
    .from(reconciliationMatches)
    .where(
      and(
        eq(reconciliationMatches.id, id),
        ...scopeWhere(scope, reconciliationMatches.tenantId, reconciliationMatches.companyId),
      ),
    );
  const [row] = forUpdate ? await query.for("update") : await query;
  if (!row) throw notFound("Reconciliation match");
  return row;
}

/**
 * Writes `set` on match `id` and, in the same transaction `tx`, emits `reconciliation.match.updated` carrying the
 * updated match (docs/treasury-api.md#reconciliation); returns that match.
 * @throws 404 `not_found` when the row is gone
 */
export async function updateMatch(
  tx: DbOrTx,
  id: string,
  set: Partial<typeof reconciliationMatches.$inferInsert>,
): Promise<ReconciliationMatch> {
  const [updated] = await tx.update(reconciliationMatches).set(set).where(eq(reconciliationMatches.id, id)).returning();
  if (!updated) throw notFound("Reconciliation match");
  const match = toMatch(updated);
  await enqueueEvents(tx, [
    { tenantId: updated.tenantId, companyId: updated.companyId, type: "reconciliation.match.updated", data: match },
  ]);
  return match;
}

export interface Decision extends MatchDecision {
  kind: "confirm" | "reject";
  /** Internal id of the OAuth client making the call. */
  clientId: string;
}

/**
 * Confirms or rejects a match in `proposed` state, records who decided and
 * why, and emits `reconciliation.match.updated` in the same transaction.
 * @throws 404 outside the scope; 409 from another state (details.state/allowed);
 *   409 when confirming and the transaction or instruction is confirmed elsewhere.
 */
export async function decideMatch(db: Db, scope: DataScope, id: string, d: Decision): Promise<ReconciliationMatch> {
  try {
    return await db.transaction(async (tx) => {
      const row = await matchRow(tx, scope, id, { forUpdate: true });
      if (row.state !== "proposed") throw stateConflict("reconciliation match", row.state, ["proposed"], d.kind);
      if (d.kind === "confirm") {
        const [other] = await tx
          .select({ id: reconciliationMatches.id, transactionId: reconciliationMatches.transactionId })
          .from(reconciliationMatches)
          .where(
            and(
              eq(reconciliationMatches.state, "confirmed"),
              ne(reconciliationMatches.id, row.id),
              or(
                eq(reconciliationMatches.transactionId, row.transactionId),
                eq(reconciliationMatches.paymentInstructionId, row.paymentInstructionId),
              ),
            ),
          )
          .limit(1);
        if (other) {
          const what = other.transactionId === row.transactionId ? "transaction" : "instruction";
          throw new ApiError("conflict", `The ${what} of this match is already confirmed in another match`, {
            reason: `${what}_already_matched`,
            match_id: other.id,
            state: row.state,
          });
        }
      }
      return await updateMatch(tx, row.id, {
        state: d.kind === "confirm" ? "confirmed" : "rejected",
        decidedAt: new Date().toISOString(),
        decidedByClientId: d.clientId,
        reviewer: d.reviewer ?? null,
        decisionReason: d.reason ?? null,
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new ApiError(
        "conflict",
        "The transaction or instruction of this match was confirmed in another match meanwhile",
        { reason: "already_matched" },
      );
    }
    throw err;
  }
}
