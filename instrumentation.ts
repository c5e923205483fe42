/**
 * Runs once when the Next server starts: parse the configuration so that a
 * bad or missing variable stops the server with a message naming it,
 * instead of failing on the first request; then start the scheduled FX rate
 * fetch when `FX_RATES_URL` is set; and start reading the Treasury API's
 * OpenAPI document (capabilities), so that the first page view does not pay
 * for it (not awaited: an API that is not up yet is retried in the background); and start the sweep of the
 * reconciliation auto-confirm rules when `DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS` is set; and schedule the
 * nightly cash-forecast recompute (lib/bff/forecast-schedule.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  await import("./lib/server/check-env");
  void (await import("./lib/bff/capabilities")).capabilities();
  if (process.env.FX_RATES_URL?.trim()) (await import("./lib/server/fx-schedule")).startFxRatesFromConfig();
  if (Number(process.env.DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS?.trim() || 0) > 0)
    (await import("./lib/bff/auto-confirm-schedule")).startAutoConfirmSweepFromConfig();
  (await import("./lib/bff/forecast-schedule")).startForecastNightly();
}
