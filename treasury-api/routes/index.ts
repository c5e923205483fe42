/**
 * Every spec area's routes, registered on the `/public` sub-app. One line per
 * area; each area lives in its own folder (routes, handlers, tests).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../lib/context";
import { registerAuthRoutes } from "./auth";
import { registerOrganizationRoutes } from "./organization";
import { registerLedgerRoutes } from "./ledger";
import { registerPaymentRoutes } from "./payments";
import { registerApprovalRoutes } from "./approvals";
import { registerReportingRoutes } from "./reporting";
import { registerWebhookRoutes } from "./webhooks";
import { registerReconciliationRoutes } from "./reconciliation";
import { registerStatementRoutes } from "./statements";
import { registerBankConnectionRoutes } from "./bank-connections";

export function registerRoutes(api: OpenAPIHono<AppEnv>): void {
  registerAuthRoutes(api);
  registerOrganizationRoutes(api);
  registerLedgerRoutes(api);
  registerPaymentRoutes(api);
  registerApprovalRoutes(api);
  registerReportingRoutes(api);
  registerWebhookRoutes(api);
  registerReconciliationRoutes(api);
  registerStatementRoutes(api);
  registerBankConnectionRoutes(api);
}
