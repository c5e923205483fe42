/**
 * Starts the scheduled FX rate fetch of this dashboard process when
 * `FX_RATES_URL` is set (off by default): fetch and import the URL a minute
 * after start, then every `FX_RATES_INTERVAL_MINUTES` (default 60; the ECB
 * publishes once a working day around 16:00 CET, and an unchanged file
 * writes nothing). Called from `instrumentation.ts`; each run is logged.
 */
import "server-only";
import { startFxRateSchedule, type FxSchedule } from "../fx/fetch";
import { getConfig } from "./config";
import { dashboardDb } from "./db";
import { logger } from "./log";

const g = globalThis as typeof globalThis & { __fxSchedule?: FxSchedule };

/** Starts the schedule once per process; a no-op without `FX_RATES_URL`. Returns it, or null when off. */
export function startFxRatesFromConfig(): FxSchedule | null {
  const { FX_RATES_URL: url, FX_RATES_INTERVAL_MINUTES: minutes } = getConfig();
  if (!url) return null;
  g.__fxSchedule ??= startFxRateSchedule({
    url,
    intervalMs: minutes * 60_000,
    firstDelayMs: 60_000,
    getDb: dashboardDb,
    onResult: (o) => {
      if (o.ok) {
        const { inserted, updated, unchanged, from, to } = o.result;
        logger.info({ url, inserted, updated, unchanged, from, to }, "fx rates fetched");
      } else logger.error({ url, err: o.error }, "fx rates fetch failed; the stored rates stay as they were");
    },
  });
  logger.info({ url, everyMinutes: minutes }, "fx rates schedule started");
  return g.__fxSchedule;
}
