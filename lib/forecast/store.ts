/**
 * Forecast data in the dashboard DB (docs/forecast.md#settings): manual lines, scenarios, and settings (recurring
 * payees switched off, minimum-cash thresholds). Rows come back in the API's snake_case shape. Writes are single
 * statements or one transaction, so a crash leaves either the old or the new row.
 */
import { and, asc, eq, like } from "drizzle-orm";
import type { DashboardDb } from "../db/client";
import { forecastManualLines as ml, forecastScenarios as sc, forecastSettings as st } from "../db/schema";
import type { ManualLineInput, ScenarioInput } from "./inputs";
import type { Adjustment } from "./scenario";
import type { ManualLine } from "./types";

/** A stored manual line. */
export type ManualLineRow = ManualLine & { company_id: string; owner: string; created_at: string; updated_at: string };

/** A stored scenario. */
export interface ScenarioRow {
  id: string;
  team: string;
  name: string;
  adjustments: Adjustment[];
  owner: string;
  updated_at: string;
}

function lineRow(r: typeof ml.$inferSelect): ManualLineRow {
  return {
    id: r.id,
    date: r.date,
    amount: r.amount,
    currency: r.currency,
    company: r.companyId,
    company_id: r.companyId,
    category: r.category,
    recurrence: r.recurrence as ManualLine["recurrence"],
    end_date: r.endDate,
    note: r.note,
    owner: r.owner,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

function lineValues(input: ManualLineInput) {
  return {
    date: input.date,
    amount: input.amount,
    currency: input.currency,
    companyId: input.company_id,
    category: input.category,
    recurrence: input.recurrence,
    endDate: input.end_date,
    note: input.note,
    updatedAt: new Date().toISOString(),
  };
}

/** Every manual line, by date then creation. */
export async function listManualLines(db: DashboardDb): Promise<ManualLineRow[]> {
  return (await db.select().from(ml).orderBy(asc(ml.date), asc(ml.createdAt))).map(lineRow);
}

/** Creates a manual line owned by `owner` (an email). */
export async function createManualLine(db: DashboardDb, input: ManualLineInput, owner: string): Promise<ManualLineRow> {
  const [row] = await db
    .insert(ml)
    .values({ ...lineValues(input), owner })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return lineRow(row);
}

/** Replaces a manual line (owner kept). @returns before and after, or null when the id is unknown. */
export async function updateManualLine(
  db: DashboardDb,
  id: string,
  input: ManualLineInput,
): Promise<{ before: ManualLineRow; after: ManualLineRow } | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(ml).where(eq(ml.id, id)).for("update");
    if (!before) return null;
    const [after] = await tx.update(ml).set(lineValues(input)).where(eq(ml.id, id)).returning();
    return after ? { before: lineRow(before), after: lineRow(after) } : null;
  });
}

/** Deletes a manual line. @returns it as it was, or null when the id is unknown. */
export async function deleteManualLine(db: DashboardDb, id: string): Promise<ManualLineRow | null> {
  const [gone] = await db.delete(ml).where(eq(ml.id, id)).returning();
  return gone ? lineRow(gone) : null;
}

function scenarioRow(r: typeof sc.$inferSelect): ScenarioRow {
  return {
    id: r.id,
    team: r.team,
    name: r.name,
    adjustments: r.adjustments as Adjustment[],
    owner: r.owner,
    updated_at: r.updatedAt,
  };
}

/** Every scenario, by team and name. */
export async function listScenarios(db: DashboardDb): Promise<ScenarioRow[]> {
  return (await db.select().from(sc).orderBy(asc(sc.team), asc(sc.name))).map(scenarioRow);
}

/** Thrown when a team already has a scenario of that name. */
export class DuplicateScenarioName extends Error {}

function isUniqueViolation(e: unknown): boolean {
  for (let c: unknown = e; c && typeof c === "object"; c = (c as { cause?: unknown }).cause)
    if ((c as { code?: unknown }).code === "23505") return true;
  return false;
}

/** Creates a scenario. @throws DuplicateScenarioName when the team has one of that name. */
export async function createScenario(db: DashboardDb, input: ScenarioInput, owner: string): Promise<ScenarioRow> {
  try {
    const [row] = await db
      .insert(sc)
      .values({ team: input.team, name: input.name, adjustments: input.adjustments, owner })
      .returning();
    if (!row) throw new Error("insert returned no row");
    return scenarioRow(row);
  } catch (e) {
    if (isUniqueViolation(e)) throw new DuplicateScenarioName(input.name);
    throw e;
  }
}

/** Replaces a scenario. @returns before and after, or null when the id is unknown. @throws DuplicateScenarioName */
export async function updateScenario(
  db: DashboardDb,
  id: string,
  input: ScenarioInput,
): Promise<{ before: ScenarioRow; after: ScenarioRow } | null> {
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx.select().from(sc).where(eq(sc.id, id)).for("update");
      if (!before) return null;
      const [after] = await tx
        .update(sc)
        .set({
          team: input.team,
          name: input.name,
          adjustments: input.adjustments,
          updatedAt: new Date().toISOString(),
        })
        .where(eq(sc.id, id))
        .returning();
      return after ? { before: scenarioRow(before), after: scenarioRow(after) } : null;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new DuplicateScenarioName(input.name);
    throw e;
  }
}

/** Deletes a scenario. @returns it as it was, or null when the id is unknown. */
export async function deleteScenario(db: DashboardDb, id: string): Promise<ScenarioRow | null> {
  const [gone] = await db.delete(sc).where(eq(sc.id, id)).returning();
  return gone ? scenarioRow(gone) : null;
}

/** The forecast settings: recurring payees switched off and thresholds by company. */
export interface ForecastSettings {
  recurringOff: Set<string>;
  thresholds: Record<string, string>;
}

/** Reads the settings. */
export async function readSettings(db: DashboardDb): Promise<ForecastSettings> {
  const rows = await db.select().from(st);
  const out: ForecastSettings = { recurringOff: new Set(), thresholds: {} };
  for (const r of rows) {
    if (r.key.startsWith("recurring_off:")) out.recurringOff.add(r.key.slice("recurring_off:".length));
    else if (r.key.startsWith("threshold:")) out.thresholds[r.key.slice("threshold:".length)] = r.value;
  }
  return out;
}

/** Sets (value) or removes (null) one setting; idempotent. @returns the value before. */
export async function writeSetting(
  db: DashboardDb,
  key: string,
  value: string | null,
  by: string,
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(st).where(eq(st.key, key)).for("update");
    if (value === null) await tx.delete(st).where(eq(st.key, key));
    else
      await tx
        .insert(st)
        .values({ key, value, updatedBy: by })
        .onConflictDoUpdate({ target: st.key, set: { value, updatedBy: by, updatedAt: new Date().toISOString() } });
    return before?.value ?? null;
  });
}

/** Keys of settings with `prefix`. */
export async function settingKeys(db: DashboardDb, prefix: string): Promise<string[]> {
  return (
    await db
      .select({ key: st.key })
      .from(st)
      .where(and(like(st.key, `${prefix}%`)))
  ).map((r) => r.key);
}
