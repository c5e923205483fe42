/**
 * The store pattern of the dashboard's admin-managed rows (auto-confirm rules, forecast manual lines and
 * scenarios): replace a row by id under a row lock and return it before and after, delete a row by id and return
 * it as it was, and turn a unique violation into the store's own error. One statement or one transaction each, so a
 * crash leaves either the old or the new row.
 */
import { eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { isUniqueViolation } from "@treasury/contract/sql/errors";
import type { DashboardDb } from "./client";

/** A table with an `id` column. */
type IdTable = PgTable & { id: PgColumn };

/**
 * Replaces row `id` of `table` with `set` (locked first). @returns the row before and after through `toRow`, or null
 * when the id is unknown. @throws as the update does.
 */
export async function replaceById<T extends IdTable, R>(
  db: DashboardDb,
  table: T,
  id: string,
  set: Partial<T["$inferInsert"]>,
  toRow: (r: T["$inferSelect"]) => R,
): Promise<{ before: R; after: R } | null> {
  return db.transaction(async (tx) => {
    const [before] = (await tx
      .select()
      .from(table as PgTable)
      .where(eq(table.id, id))
      .for("update")) as T["$inferSelect"][] | [];
    if (!before) return null;
    const [after] = (await tx
      .update(table)
      .set(set as never)
      .where(eq(table.id, id))
      .returning()) as T["$inferSelect"][];
    return after ? { before: toRow(before), after: toRow(after) } : null;
  });
}

/** Deletes row `id` of `table`. @returns it as it was through `toRow`, or null when the id is unknown. */
export async function deleteById<T extends IdTable, R>(
  db: DashboardDb,
  table: T,
  id: string,
  toRow: (r: T["$inferSelect"]) => R,
): Promise<R | null> {
  const [gone] = (await db.delete(table).where(eq(table.id, id)).returning()) as T["$inferSelect"][];
  return gone ? toRow(gone) : null;
}

/** Runs `write`; a unique violation becomes `duplicate()` (the store's own error), anything else is rethrown. */
export async function uniqueOr<T>(write: () => Promise<T>, duplicate: () => Error): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate();
    throw err;
  }
}
