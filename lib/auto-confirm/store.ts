/**
 * Auto-confirm rules and the confirmations they make, in the dashboard DB (`reconciliation_auto_rules`,
 * `reconciliation_auto_confirmations`). Rules come back in the admin API's snake_case shape (`AutoRuleRow`);
 * a confirmation is recorded (`pending`, with the Idempotency-Key it is sent under) before the Treasury API is called
 * and marked `confirmed` together with its audit entry, so a crash in between re-sends the same request.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { DashboardDb } from "../db/client";
import { appendAudit, type AuditInput } from "../db/audit";
import { reconciliationAutoConfirmations as c, reconciliationAutoRules as t } from "../db/schema";
import { deleteById, replaceById, uniqueOr } from "../db/row-store";
import type { AutoRule, AutoRuleInput } from "./rules";

/** A stored rule as the admin API returns it. */
export type AutoRuleRow = AutoRule & { created_at: string; updated_at: string };

/** A rule name another rule already has (names are unique ignoring case). */
export class DuplicateRuleName extends Error {}

type Row = typeof t.$inferSelect;

function toRow(r: Row): AutoRuleRow {
  return {
    id: r.id,
    name: r.name,
    enabled: r.enabled,
    min_score: r.minScore,
    exact_amount: r.exactAmount,
    end_to_end_id: r.endToEndId,
    company_id: r.companyId,
    currency: r.currency,
    max_amount: r.maxAmount,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

function values(input: AutoRuleInput) {
  return {
    name: input.name,
    enabled: input.enabled,
    minScore: input.min_score,
    exactAmount: input.exact_amount,
    endToEndId: input.end_to_end_id,
    companyId: input.company_id,
    currency: input.currency,
    maxAmount: input.max_amount,
    updatedAt: new Date().toISOString(),
  };
}

const duplicateName = () => new DuplicateRuleName("another rule has this name");

/** Every rule in the order they are tried (creation order). */
export async function listAutoRules(db: DashboardDb): Promise<AutoRuleRow[]> {
  return (await db.select().from(t).orderBy(asc(t.createdAt), asc(t.id))).map(toRow);
}

/** @throws DuplicateRuleName */
export async function createAutoRule(db: DashboardDb, input: AutoRuleInput): Promise<AutoRuleRow> {
  const [row] = await uniqueOr(() => db.insert(t).values(values(input)).returning(), duplicateName);
  if (!row) throw new Error("insert returned no row");
  return toRow(row);
}

/** @returns before and after, or null when the id is unknown. @throws DuplicateRuleName */
export async function updateAutoRule(
  db: DashboardDb,
  id: string,
  input: AutoRuleInput,
): Promise<{ before: AutoRuleRow; after: AutoRuleRow } | null> {
  return uniqueOr(() => replaceById(db, t, id, values(input), toRow), duplicateName);
}

/** @returns the deleted rule, or null when the id is unknown. Its confirmations stay (they name the rule). */
export async function deleteAutoRule(db: DashboardDb, id: string): Promise<AutoRuleRow | null> {
  return deleteById(db, t, id, toRow);
}

/** A confirmation made (or being made) by a rule. */
export type AutoConfirmation = typeof c.$inferSelect;

/** What is recorded before the API is called. */
export interface IntendedConfirmation {
  matchId: string;
  ruleId: string;
  ruleName: string;
  companyId: string | null;
  upstreamKey: string;
}

/**
 * Records intended confirmations as `pending`; a match that already has a record (pending, confirmed, failed or
 * undone) is left as it is. @returns the rows recorded now.
 */
export async function recordIntended(
  db: DashboardDb,
  rows: readonly IntendedConfirmation[],
): Promise<AutoConfirmation[]> {
  if (rows.length === 0) return [];
  return db
    .insert(c)
    .values(rows.map((r) => ({ ...r, state: "pending" })))
    .onConflictDoNothing({ target: c.matchId })
    .returning();
}

/** The confirmations not yet sent or not known sent, oldest first. */
export async function pendingConfirmations(db: DashboardDb): Promise<AutoConfirmation[]> {
  return db.select().from(c).where(eq(c.state, "pending")).orderBy(asc(c.recordedAt));
}

/** The records of these matches (any state), by match id. */
export async function confirmationsOf(
  db: DashboardDb,
  matchIds: readonly string[],
): Promise<Map<string, AutoConfirmation>> {
  if (matchIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(c)
    .where(inArray(c.matchId, [...matchIds]));
  return new Map(rows.map((r) => [r.matchId, r]));
}

/** Every match id that has a record (a rule never acts twice on a match). */
export async function recordedMatchIds(db: DashboardDb): Promise<Set<string>> {
  return new Set((await db.select({ id: c.matchId }).from(c)).map((r) => r.id));
}

/**
 * Marks a pending confirmation sent and appends its audit entry, in one transaction (a crash leaves both undone,
 * and the re-send is answered from the API's idempotency store). @returns false when it was not pending any more.
 */
export async function markConfirmed(
  db: DashboardDb,
  matchId: string,
  confirmedAt: string,
  audit: AuditInput,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const done = await tx
      .update(c)
      .set({ state: "confirmed", confirmedAt })
      .where(and(eq(c.matchId, matchId), eq(c.state, "pending")))
      .returning({ id: c.matchId });
    if (done.length === 0) return false;
    await appendAudit(tx, audit);
    return true;
  });
}

/** A pending confirmation the API refused: kept with the reason, never sent again. */
export async function markFailed(db: DashboardDb, matchId: string, error: string): Promise<void> {
  await db
    .update(c)
    .set({ state: "failed", error })
    .where(and(eq(c.matchId, matchId), eq(c.state, "pending")));
}

/** A confirmed one reopened by a person. @returns false when it was not confirmed (already undone). */
export async function markUndone(db: DashboardDb, matchId: string, by: string, at: string): Promise<boolean> {
  const done = await db
    .update(c)
    .set({ state: "undone", undoneAt: at, undoneBy: by })
    .where(and(eq(c.matchId, matchId), eq(c.state, "confirmed")))
    .returning({ id: c.matchId });
  return done.length > 0;
}
