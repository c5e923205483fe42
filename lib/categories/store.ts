/**
 * Cashflow category rules in the dashboard DB (`cashflow_category_rules`): list in order, create (appended
 * last), update (position kept), move (1-based, clamped), delete (the rest move up). Rows are returned in the
 * API's snake_case shape (`CategoryRule`) with `updated_at`.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { DashboardDb } from "../db/client";
import { cashflowCategoryRules as t } from "../db/schema";
import type { CategoryRule, CategoryRuleInput } from "./rules";

/** A stored rule as the admin API returns it. */
export type CategoryRuleRow = CategoryRule & { updated_at: string };

type Row = typeof t.$inferSelect;

function toRow(r: Row): CategoryRuleRow {
  return {
    id: r.id,
    position: r.position,
    category: r.category,
    counterparty_contains: r.counterpartyContains,
    remittance_contains: r.remittanceContains,
    iban: r.iban,
    direction: r.direction === "credit" || r.direction === "debit" ? r.direction : null,
    min_amount: r.minAmount,
    max_amount: r.maxAmount,
    updated_at: r.updatedAt,
  };
}

function values(input: CategoryRuleInput) {
  return {
    category: input.category,
    counterpartyContains: input.counterparty_contains,
    remittanceContains: input.remittance_contains,
    iban: input.iban,
    direction: input.direction,
    minAmount: input.min_amount,
    maxAmount: input.max_amount,
    updatedAt: new Date().toISOString(),
  };
}

/** Every rule, in position order (1 first). */
export async function listCategoryRules(db: DashboardDb): Promise<CategoryRuleRow[]> {
  return (await db.select().from(t).orderBy(asc(t.position))).map(toRow);
}

/** Appends a rule after the last one. */
export async function createCategoryRule(db: DashboardDb, input: CategoryRuleInput): Promise<CategoryRuleRow> {
  return db.transaction(async (tx) => {
    const [max] = await tx.select({ n: sql<number>`coalesce(max(${t.position}), 0)::int` }).from(t);
    const [row] = await tx
      .insert(t)
      .values({ ...values(input), position: Number(max?.n ?? 0) + 1 })
      .returning();
    if (!row) throw new Error("insert returned no row");
    return toRow(row);
  });
}

/** Replaces a rule's conditions and category. @returns before and after, or null when the id is unknown. */
export async function updateCategoryRule(
  db: DashboardDb,
  id: string,
  input: CategoryRuleInput,
): Promise<{ before: CategoryRuleRow; after: CategoryRuleRow } | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(t).where(eq(t.id, id)).for("update");
    if (!before) return null;
    const [after] = await tx.update(t).set(values(input)).where(eq(t.id, id)).returning();
    return after ? { before: toRow(before), after: toRow(after) } : null;
  });
}

/** Renumbers 1..n in the given order (two steps: the position index is unique). */
async function renumber(tx: DashboardDb, ids: readonly string[]): Promise<void> {
  await tx.update(t).set({ position: sql`-${t.position}` });
  for (const [i, id] of ids.entries())
    await tx
      .update(t)
      .set({ position: i + 1 })
      .where(eq(t.id, id));
}

/** Moves a rule to `position` (1-based, clamped); the others keep their order. Null when the id is unknown. */
export async function moveCategoryRule(
  db: DashboardDb,
  id: string,
  position: number,
): Promise<{ before: CategoryRuleRow[]; after: CategoryRuleRow[] } | null> {
  return db.transaction(async (tx) => {
    const before = (await tx.select().from(t).orderBy(asc(t.position)).for("update")).map(toRow);
    if (!before.some((r) => r.id === id)) return null;
    const rest = before.filter((r) => r.id !== id).map((r) => r.id);
    rest.splice(Math.max(0, Math.min(rest.length, position - 1)), 0, id);
    await renumber(tx, rest);
    const after = (await tx.select().from(t).orderBy(asc(t.position))).map(toRow);
    return { before, after };
  });
}

/** Deletes a rule and closes the gap. @returns the deleted rule, or null when the id is unknown. */
export async function deleteCategoryRule(db: DashboardDb, id: string): Promise<CategoryRuleRow | null> {
  return db.transaction(async (tx) => {
    const [gone] = await tx.delete(t).where(eq(t.id, id)).returning();
    if (!gone) return null;
    const rest = await tx.select({ id: t.id }).from(t).orderBy(asc(t.position));
    await renumber(
      tx,
      rest.map((r) => r.id),
    );
    return toRow(gone);
  });
}
