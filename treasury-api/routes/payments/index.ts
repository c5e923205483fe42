/** Payments area: each route declaration wired to its handler. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/context";
import * as h from "./payments.handlers";
import * as r from "./payments.routes";

export function registerPaymentRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(r.listBatchesRoute, h.listBatches);
  api.openapi(r.createBatchRoute, h.createBatch, h.batchBodyHook);
  api.openapi(r.getBatchRoute, h.getBatch);
  api.openapi(r.updateBatchRoute, h.updateBatch, h.batchBodyHook);
  api.openapi(r.discardBatchRoute, h.discardBatch);
  api.openapi(r.submitBatchRoute, h.submitBatch);
  api.openapi(r.getBatchDebtorAccountRoute, h.getBatchDebtorAccount);
  api.openapi(r.listBatchInstructionsRoute, h.listBatchInstructions);
  api.openapi(r.lookupInstructionsRoute, h.lookupInstructions);
  api.openapi(r.getInstructionRoute, h.getInstruction);
  api.openapi(r.listStatusEventsRoute, h.listStatusEvents);
}
