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
  // The e-mail outbox sweep (docs/users-and-notifications.md#e-mail-outbox), only when SMTP_URL is set.
  if (process.env.SMTP_URL?.trim()) (await import("./lib/notify/runtime")).startOutboxWorker();
  (await import("./lib/bff/forecast-schedule")).startForecastNightly();
}

/**
 * Called by Next for an error thrown while rendering a page or handling a route (docs/operations.md, "Health, shutdown and logs"): logs it
 * at error level with the request id (proxy.ts sets `x-request-id`) and Next's digest, which the error page shows
 * as its reference — so the reference a user reads out leads to the request in the logs. Next's own control flow
 * (not found, redirects, dynamic rendering: digests starting `NEXT_` or `DYNAMIC_SERVER_USAGE`) is not an error.
 */
export async function onRequestError(
  error: unknown,
  request: Readonly<{ path: string; method: string; headers: NodeJS.Dict<string | string[]> }>,
  context: Readonly<{ routePath: string; routeType: string }>,
): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const digest = (error as { digest?: unknown } | null)?.digest;
  if (typeof digest === "string" && (digest.startsWith("NEXT_") || digest === "DYNAMIC_SERVER_USAGE")) return;
  const id = request.headers["x-request-id"];
  const { logger } = await import("./lib/server/log");
  logger.error(
    {
      err: error,
      digest,
      requestId: Array.isArray(id) ? id[0] : id,
      method: request.method,
      path: request.path,
      route: context.routePath,
      routeType: context.routeType,
    },
    "request failed",
  );
}
