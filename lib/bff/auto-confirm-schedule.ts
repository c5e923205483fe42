/**
 * The periodic sweep of the reconciliation auto-confirm rules on this dashboard server: off unless
 * `DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS` is set to 10–86 400 (0 or unset: off; the rules still run whenever the
 * review is read). Each sweep reads the matches, confirms those an enabled rule accepts and re-sends any
 * confirmation left pending by an earlier run (a crash, an API that was down); see lib/bff/auto-confirm.ts.
 * Started from `instrumentation.ts`; sweeps never overlap; each sweep that does something is logged.
 */
import "server-only";
import { runAutoConfirm } from "./auto-confirm";
import { getConfig } from "../server/config";
import { logger } from "../server/log";

const g = globalThis as typeof globalThis & { __autoConfirmSweep?: ReturnType<typeof setInterval> };

/** Starts the sweep once per process; a no-op when the variable is unset or 0. @returns the interval in ms, or null. */
export function startAutoConfirmSweepFromConfig(): number | null {
  const seconds = getConfig().DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS ?? 0;
  if (!seconds) return null;
  if (g.__autoConfirmSweep) return seconds * 1000;
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const out = await runAutoConfirm({ requestId: `auto-confirm-${Date.now()}` });
      if (out.confirmed.length || out.failed.length || out.pending.length)
        logger.info(
          { confirmed: out.confirmed.length, failed: out.failed.length, pending: out.pending.length },
          "auto-confirm sweep",
        );
    } catch (err) {
      logger.warn({ err: err instanceof Error ? err.message : String(err) }, "auto-confirm sweep failed; retried next");
    } finally {
      running = false;
    }
  };
  g.__autoConfirmSweep = setInterval(() => void sweep(), seconds * 1000);
  g.__autoConfirmSweep.unref?.();
  logger.info({ everySeconds: seconds }, "auto-confirm sweep started");
  return seconds * 1000;
}
