/** Reporting area: each route declaration wired to its handler. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/context";
import * as h from "./reporting.handlers";
import * as r from "./reporting.routes";

export function registerReportingRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(r.cashflowDailyRoute, h.cashflow);
  api.openapi(r.cashflowAliasRoute, h.cashflowAlias);
  api.openapi(r.positionsDailyRoute, h.positions);
  api.openapi(r.positionsAliasRoute, h.positionsAlias);
  api.openapi(r.forecastRoute, h.forecastReport);
}
