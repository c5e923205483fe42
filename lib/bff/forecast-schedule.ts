/**
 * The nightly forecast run on this dashboard server (docs/forecast.md#recomputing): at 02:00 UTC each day the
 * model choices (backtests) and cached forecasts are dropped and the forecasts read the day before are recomputed
 * (lib/bff/queries/cash-forecast.ts `nightlyForecastRun`), so the first view of the day is warm. Started from
 * `instrumentation.ts`; runs never overlap; a failed run is logged and tried again the next night. A person can
 * recompute at any time with the page's "Recompute" button (`GET /api/forecast?refresh=1`).
 */
import "server-only";
import { nightlyForecastRun } from "./queries/cash-forecast";
import { logger } from "../server/log";

/** Hour of the day (UTC) the run starts. */
export const NIGHTLY_HOUR_UTC = 2;

const g = globalThis as typeof globalThis & { __forecastNightly?: ReturnType<typeof setTimeout> };

/** Milliseconds from `now` to the next `hour`:00 UTC (a full day when it is that very minute). */
export function msUntilNextRun(now: Date, hour = NIGHTLY_HOUR_UTC): number {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour));
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next.getTime() - now.getTime();
}

/** Schedules the nightly run once per process. @returns the milliseconds until the first run. */
export function startForecastNightly(): number {
  const wait = msUntilNextRun(new Date());
  if (g.__forecastNightly) return wait;
  const run = async () => {
    try {
      const n = await nightlyForecastRun();
      logger.info({ recomputed: n }, "forecast nightly run");
    } catch (err) {
      logger.warn({ err: err instanceof Error ? err.message : String(err) }, "forecast nightly run failed");
    } finally {
      g.__forecastNightly = setTimeout(() => void run(), msUntilNextRun(new Date()));
      g.__forecastNightly.unref?.();
    }
  };
  g.__forecastNightly = setTimeout(() => void run(), wait);
  g.__forecastNightly.unref?.();
  return wait;
}
