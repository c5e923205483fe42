/** Approvals area: each route declaration wired to its handler. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/context";
import * as h from "./approvals.handlers";
import * as r from "./approvals.routes";

export function registerApprovalRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(r.listPendingRoute, h.listPending);
  api.openapi(r.getApprovalRoute, h.getApproval);
  api.openapi(r.approveRoute, h.approve);
  api.openapi(r.rejectRoute, h.reject);
}
