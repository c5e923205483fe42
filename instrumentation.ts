/**
 * Runs once when the Next server starts: parse the configuration so that a
 * bad or missing variable stops the server with a message naming it,
 * instead of failing on the first request; then start the scheduled FX rate
 * fetch when `FX_RATES_URL` is set.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  await import("./lib/server/check-env");
  if (process.env.FX_RATES_URL?.trim()) (await import("./lib/server/fx-schedule")).startFxRatesFromConfig();
}
