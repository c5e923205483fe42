/**
 * Structured log of the dashboard server: pino, one JSON object per line on
 * stdout for the log collector, tagged `service: "dashboard"`; silent in tests
 * unless LOG_LEVEL says otherwise.
 */
import "server-only";
import pino from "pino";

const g = globalThis as typeof globalThis & { __dashboardLogger?: pino.Logger };

export const logger: pino.Logger = (g.__dashboardLogger ??= pino({
  base: { service: "dashboard" },
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
}));
