/** Reconciliation area: each route declaration wired to its handler. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/context";
import * as h from "./reconciliation.handlers";
import * as r from "./reconciliation.routes";
import { reopenMatchRoute } from "./reopen.routes";
import { reopenMatchHandler } from "./reopen.handlers";

export function registerReconciliationRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(r.listMatchesRoute, h.listMatches);
  api.openapi(r.getMatchRoute, h.getMatch);
  api.openapi(r.confirmMatchRoute, h.confirmMatch);
  api.openapi(r.rejectMatchRoute, h.rejectMatch);
  api.openapi(reopenMatchRoute, reopenMatchHandler);
}
