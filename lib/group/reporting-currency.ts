/**
 * The reporting currency of the signed-in user and the currencies they may
 * pick: EUR (the base of every stored rate) and every currency that has at
 * least one stored EUR reference rate, since a currency without rates could
 * convert nothing. The list is read from `fx_rates` and cached for 60 s per
 * process; the configured default is always offered.
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { DashboardDb } from "../db/client";
import { fxRates } from "../db/schema";
import { isReportingCurrency, reportingCurrencyOf, type ReportingCurrency } from "../db/user-preferences";
import { getConfig } from "../server/config";
import { dashboardDb } from "../server/db";

const TTL_MS = 60_000;
const g = globalThis as typeof globalThis & { __reportingCurrencies?: { at: number; list: Promise<string[]> } };

/** The configured default reporting currency (`DASHBOARD_REPORTING_CURRENCY`, EUR when unset). */
export function defaultReportingCurrency(): string {
  return getConfig().DASHBOARD_REPORTING_CURRENCY ?? "EUR";
}

async function readSupported(db: DashboardDb): Promise<string[]> {
  const rows = await db
    .selectDistinct({ quote: fxRates.quote })
    .from(fxRates)
    .where(sql`${fxRates.base} = 'EUR'`);
  const set = new Set(["EUR", defaultReportingCurrency(), ...rows.map((r) => r.quote)]);
  return [...set].filter(isReportingCurrency).sort();
}

/** The currencies a user may choose as reporting currency, sorted (ISO 4217 codes). */
export function supportedReportingCurrencies(): Promise<string[]> {
  const now = Date.now();
  const c = g.__reportingCurrencies;
  if (c && now - c.at < TTL_MS) return c.list;
  const list = dashboardDb().then(readSupported);
  g.__reportingCurrencies = { at: now, list };
  list.catch(() => {
    if (g.__reportingCurrencies?.list === list) g.__reportingCurrencies = undefined;
  });
  return list;
}

/** The user's reporting currency (their choice, else the configured default). */
export async function reportingCurrencyFor(userId: string): Promise<ReportingCurrency> {
  return reportingCurrencyOf(await dashboardDb(), userId, defaultReportingCurrency());
}
