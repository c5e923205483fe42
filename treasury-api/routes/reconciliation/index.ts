/** Reconciliation area: each route declaration wired to its handler. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/context";
import * as h from "./reconciliation.handlers";
import * as r from "./reconciliation.routes";
import * as uh from "./unmatched.handlers";
import * as ur from "./unmatched.routes";
import { reopenMatchRoute } from "./reopen.routes";
import { reopenMatchHandler } from "./reopen.handlers";

export function registerReconciliationRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(r.listMatchesRoute, h.listMatches);
  api.openapi(r.getMatchRoute, h.getMatch);
  api.openapi(r.confirmMatchRoute, h.confirmMatch);
  api.openapi(r.rejectMatchRoute, h.rejectMatch);
  // Extensions: the unmatched items and the manual match.
  api.openapi(ur.listUnmatchedRoute, uh.listUnmatched);
  api.openapi(ur.createManualMatchRoute, uh.createManualMatch);
  // Extension: a confirmed match back to proposed within 24 h.
  api.openapi(reopenMatchRoute, reopenMatchHandler);
}
