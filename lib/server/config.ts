/**
 * The parsed configuration of the running dashboard (server-only). Parsed
 * once per process on first use; `instrumentation.ts` calls it at start so
 * that a bad variable stops the server before the first request.
 */
import "server-only";
import { parseDashboardEnv, type DashboardEnv } from "./env";

const g = globalThis as typeof globalThis & { __dashboardConfig?: DashboardEnv };

/** The configuration; @throws ConfigError naming the bad variables. */
export function getConfig(): DashboardEnv {
  g.__dashboardConfig ??= parseDashboardEnv(process.env);
  return g.__dashboardConfig;
}
