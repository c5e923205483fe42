/**
 * The cash forecast's own data on the server (docs/forecast.md#the-routes): manual lines, scenarios, recurring
 * payee switches and minimum-cash thresholds in the dashboard DB. The routes audit every write; these functions
 * check what the schema cannot (the company is one the user may see, a scenario name is free in its team).
 */
import "server-only";
import type { BffContext } from "../context";
import { BffError } from "../errors";
import { dashboardDb } from "../../server/db";
import type { ManualLineInput, ScenarioInput, SnapshotInput } from "../../forecast/inputs";
import { isoWeek } from "../../forecast/variance";
import {
  DuplicateScenarioName,
  createManualLine,
  createScenario,
  deleteManualLine,
  deleteScenario,
  listManualLines,
  listScenarios,
  readSettings,
  saveSnapshots,
  updateManualLine,
  updateScenario,
  writeSetting,
} from "../../forecast/store";
import { dropForecastCache } from "./cash-forecast";

/** Runs a forecast write, then drops the cached forecasts so the next read includes it. */
async function changed<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } finally {
    dropForecastCache();
  }
}

const notFound = (what: string) => new BffError("not_found", `There is no such ${what}.`);

/** 400 naming `company_id` when the user may not see the company. */
function checkCompany(ctx: BffContext, companyId: string): void {
  if (!ctx.companies.some((c) => c.id === companyId))
    throw new BffError("validation_error", "company_id is not one of your companies", {
      errors: { company_id: ["is not one of your companies"] },
    });
}

function duplicate(e: unknown): never {
  if (e instanceof DuplicateScenarioName)
    throw new BffError("conflict", "name is already used by a scenario of this team", {
      errors: { name: ["is already used by a scenario of this team"] },
    });
  throw e;
}

/** Manual lines, scenarios and settings, for the forecast page. */
export async function forecastInputsView(ctx: BffContext) {
  const db = await dashboardDb();
  const visible = new Set(ctx.companies.map((c) => c.id));
  const [lines, scenarios, settings] = await Promise.all([listManualLines(db), listScenarios(db), readSettings(db)]);
  return {
    lines: lines.filter((l) => visible.has(l.company_id)),
    scenarios,
    recurring_off: [...settings.recurringOff].sort(),
    thresholds: Object.fromEntries(Object.entries(settings.thresholds).filter(([c]) => visible.has(c))),
  };
}

export async function addManualLine(ctx: BffContext, input: ManualLineInput) {
  checkCompany(ctx, input.company_id);
  return changed(createManualLine(await dashboardDb(), input, ctx.user.email));
}

/** Replaces a manual line. @throws BffError 400 naming `company_id` for a company the user cannot see; 404. */
export async function changeManualLine(id: string, input: ManualLineInput, ctx: BffContext) {
  checkCompany(ctx, input.company_id);
  return (await changed(updateManualLine(await dashboardDb(), id, input))) ?? Promise.reject(notFound("manual line"));
}

export async function removeManualLine(id: string) {
  return (await changed(deleteManualLine(await dashboardDb(), id))) ?? Promise.reject(notFound("manual line"));
}

export async function addScenario(ctx: BffContext, input: ScenarioInput) {
  return changed(createScenario(await dashboardDb(), input, ctx.user.email)).catch(duplicate);
}

export async function changeScenario(id: string, input: ScenarioInput) {
  return (
    (await changed(updateScenario(await dashboardDb(), id, input)).catch(duplicate)) ??
    Promise.reject(notFound("scenario"))
  );
}

export async function removeScenario(id: string) {
  return (await changed(deleteScenario(await dashboardDb(), id))) ?? Promise.reject(notFound("scenario"));
}

/** Switches a detected recurring payee on or off. @returns the state before and after. */
export async function switchRecurring(ctx: BffContext, id: string, enabled: boolean) {
  const before = await changed(
    writeSetting(await dashboardDb(), `recurring_off:${id}`, enabled ? null : "off", ctx.user.email),
  );
  return { id, before: { enabled: before === null }, after: { enabled } };
}

/** Sets (or with null removes) a company's minimum cash in the reporting currency. */
export async function setThreshold(ctx: BffContext, companyId: string, amount: string | null) {
  checkCompany(ctx, companyId);
  const before = await changed(writeSetting(await dashboardDb(), `threshold:${companyId}`, amount, ctx.user.email));
  return { company_id: companyId, before, after: amount };
}

/**
 * The test seam of docs/forecast.md#variance (`POST /api/forecast/snapshots`): stores a past week's snapshot of one
 * of the user's companies through the same `saveSnapshots` the forecast uses (the week of `as_of`, the first one
 * kept). @returns the ISO week and how many rows were inserted (0 or 1).
 * Only its route's `enabled` (`DASHBOARD_TEST_SEAMS=1`) lets a request reach it.
 * @throws BffError 400 naming `company_id` for a company the user cannot see.
 */
export async function storeTestSnapshot(
  ctx: BffContext,
  input: SnapshotInput,
): Promise<{ iso_week: string; inserted: number }> {
  checkCompany(ctx, input.company_id);
  const iso_week = isoWeek(input.as_of);
  const inserted = await saveSnapshots(await dashboardDb(), [
    { iso_week, company: input.company_id, as_of: input.as_of, forecast_to: input.forecast_to, rows: input.rows },
  ]);
  return { iso_week, inserted };
}
