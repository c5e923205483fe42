/**
 * Forecast data in the dashboard DB (docs/forecast.md#settings): manual lines, scenarios, and settings (recurring
 * payees switched off, minimum-cash thresholds). Rows come back in the API's snake_case shape. Writes are single
 * statements or one transaction, so a crash leaves either the old or the new row.
 */
import { and, asc, eq, gte, inArray, like } from "drizzle-orm";
import type { DashboardDb } from "../db/client";
import { deleteById, replaceById, uniqueOr } from "../db/row-store";
import {
  forecastManualLines as ml,
  forecastScenarios as sc,
  forecastSettings as st,
  forecastSnapshots as sn,
} from "../db/schema";
import type { ManualLineInput, ScenarioInput } from "./inputs";
import type { Adjustment } from "./scenario";
import type { ManualLine } from "./types";
import type { Snapshot } from "./variance";

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
  return replaceById(db, ml, id, lineValues(input), lineRow);
}

/** Deletes a manual line. @returns it as it was, or null when the id is unknown. */
export async function deleteManualLine(db: DashboardDb, id: string): Promise<ManualLineRow | null> {
  return deleteById(db, ml, id, lineRow);
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

const duplicateName = (name: string) => () => new DuplicateScenarioName(name);

/** Creates a scenario. @throws DuplicateScenarioName when the team has one of that name. */
export async function createScenario(db: DashboardDb, input: ScenarioInput, owner: string): Promise<ScenarioRow> {
  const [row] = await uniqueOr(
    () =>
      db.insert(sc).values({ team: input.team, name: input.name, adjustments: input.adjustments, owner }).returning(),
    duplicateName(input.name),
  );
  if (!row) throw new Error("insert returned no row");
  return scenarioRow(row);
}

/** Replaces a scenario. @returns before and after, or null when the id is unknown. @throws DuplicateScenarioName */
export async function updateScenario(
  db: DashboardDb,
  id: string,
  input: ScenarioInput,
): Promise<{ before: ScenarioRow; after: ScenarioRow } | null> {
  const set = {
    team: input.team,
    name: input.name,
    adjustments: input.adjustments,
    updatedAt: new Date().toISOString(),
  };
  return uniqueOr(() => replaceById(db, sc, id, set, scenarioRow), duplicateName(input.name));
}

/** Deletes a scenario. @returns it as it was, or null when the id is unknown. */
export async function deleteScenario(db: DashboardDb, id: string): Promise<ScenarioRow | null> {
  return deleteById(db, sc, id, scenarioRow);
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

/**
 * Stores forecast snapshots (docs/forecast.md#variance), one per ISO week and company: a snapshot already stored for
 * that week and company is kept as it is (`ON CONFLICT DO NOTHING`), so a second computation in the same week — or
 * two racing ones — changes nothing. One statement: a crash stores all of them or none.
 * @returns how many were new.
 */
export async function saveSnapshots(db: DashboardDb, snapshots: readonly Snapshot[]): Promise<number> {
  if (snapshots.length === 0) return 0;
  const rows = await db
    .insert(sn)
    .values(
      snapshots.map((s) => ({
        isoWeek: s.iso_week,
        companyId: s.company,
        asOf: s.as_of,
        forecastTo: s.forecast_to,
        rows: s.rows,
      })),
    )
    .onConflictDoNothing({ target: [sn.isoWeek, sn.companyId] })
    .returning({ w: sn.isoWeek });
  return rows.length;
}

/** The snapshots of `companies` taken on or after `since` (`YYYY-MM-DD`, compared with `as_of`), oldest first. */
export async function listSnapshots(db: DashboardDb, companies: readonly string[], since: string): Promise<Snapshot[]> {
  if (companies.length === 0) return [];
  const rows = await db
    .select()
    .from(sn)
    .where(and(inArray(sn.companyId, [...companies]), gte(sn.asOf, since)))
    .orderBy(asc(sn.asOf), asc(sn.companyId));
  return rows.map((r) => ({
    iso_week: r.isoWeek,
    company: r.companyId,
    as_of: r.asOf,
    forecast_to: r.forecastTo,
    rows: r.rows,
  }));
}
