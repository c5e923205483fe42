/**
 * Per-user preferences in the dashboard database (table `user_preferences`):
 * for now the reporting currency, the one currency that group totals and
 * reports convert into (rules in lib/fx/convert.ts). A user without a choice
 * gets the dashboard's default (`DASHBOARD_REPORTING_CURRENCY`, EUR).
 */
import { eq, sql } from "drizzle-orm";
import type { DashboardDb } from "./client";
import { userPreferences, users } from "./schema";

/** A reporting currency the user picked, or the default when they picked none. */
export interface ReportingCurrency {
  currency: string;
  /** "user": chosen by the user; "default": the dashboard's default. */
  origin: "user" | "default";
}

/** A currency that cannot be a reporting currency, or an unknown user. */
export class PreferenceError extends Error {
  readonly code = "validation_error";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field} ${message}`);
    this.name = "PreferenceError";
  }
}

let known: Set<string> | undefined;

/** True for an ISO 4217 code this runtime can display ("NOK"; not "nok", not "ABC"). */
export function isReportingCurrency(code: string): boolean {
  known ??= new Set(Intl.supportedValuesOf("currency"));
  return /^[A-Z]{3}$/.test(code) && known.has(code);
}

/**
 * The user's reporting currency, else `fallback` (the configured default).
 * @throws PreferenceError when `fallback` is not a currency code.
 */
export async function reportingCurrencyOf(
  db: DashboardDb,
  userId: string,
  fallback: string,
): Promise<ReportingCurrency> {
  if (!isReportingCurrency(fallback)) throw new PreferenceError("fallback", "must be an ISO 4217 currency code");
  const [row] = await db
    .select({ currency: userPreferences.reportingCurrency })
    .from(userPreferences)
    .where(eq(userPreferences.userId, userId));
  return row?.currency ? { currency: row.currency, origin: "user" } : { currency: fallback, origin: "default" };
}

/**
 * Sets (or with `null` clears, back to the default) the user's reporting currency.
 * @returns the stored choice (null when cleared)
 * @throws PreferenceError naming `reportingCurrency` for a code that is not an
 *   ISO 4217 currency, or `userId` for a user that does not exist.
 */
export async function setReportingCurrency(
  db: DashboardDb,
  userId: string,
  currency: string | null,
): Promise<string | null> {
  if (currency !== null && !isReportingCurrency(currency))
    throw new PreferenceError("reportingCurrency", "must be an ISO 4217 currency code such as EUR");
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw new PreferenceError("userId", "is not a dashboard user");
  await db
    .insert(userPreferences)
    .values({ userId, reportingCurrency: currency })
    .onConflictDoUpdate({
      target: userPreferences.userId,
      set: { reportingCurrency: currency, updatedAt: sql`now()` },
    });
  return currency;
}
