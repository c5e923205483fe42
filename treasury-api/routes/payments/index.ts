/** Payments area: wiring of routes to repositories (spec §4 Payments). */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/context";
import { ApiError, fieldError } from "../../lib/errors";
import { checkDateRange, listBody, resolvePaging } from "../../lib/lists";
import * as r from "./payments.routes";
import * as repo from "../../db/repos/payments";

export function registerPaymentRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(r.listBatchesRoute, async (c) => {
    const q = c.req.valid("query");
    checkDateRange(q);
    const paging = resolvePaging(c, q);
    const { rows, count } = await repo.listBatches(
      c.get("db"),
      c.get("scope"),
      { status: q.status, fromDate: q.from_date, toDate: q.to_date },
      paging,
      paging.needsCount,
    );
    return c.json(listBody(c, paging, rows, count), 200);
  });

  api.openapi(r.createBatchRoute, async (c) => {
    const body = c.req.valid("json");
    const caller = c.get("caller");
    if (!caller) throw new ApiError("authentication_failed", "Authorization: Bearer token is required");
    const header = c.get("companyId");
    // Spec §5 rule 4: company_id must equal the header; Form A without the header: a company of the tenant.
    if (header ? body.company_id !== header : !caller.companyIds.includes(body.company_id)) {
      throw fieldError("company_id", header ? "must equal the X-Company-ID header" : "is not a company of this tenant");
    }
    return c.json(await repo.createBatch(c.get("db"), c.get("scope"), caller.clientId, body), 201);
  });

  api.openapi(r.getBatchRoute, async (c) =>
    c.json(repo.toBatch(await repo.getBatchRow(c.get("db"), c.get("scope"), c.req.valid("param").id)), 200),
  );

  api.openapi(r.submitBatchRoute, async (c) =>
    c.json(
      await repo.submitBatch(c.get("db"), c.get("scope"), c.req.valid("param").id, c.get("config").fourEyesThreshold),
      202,
    ),
  );

  api.openapi(r.getBatchDebtorAccountRoute, async (c) =>
    c.json(await repo.getDebtorAccount(c.get("db"), c.get("scope"), c.req.valid("param").id), 200),
  );

  api.openapi(r.listBatchInstructionsRoute, async (c) => {
    const q = c.req.valid("query");
    const batch = await repo.getBatchRow(c.get("db"), c.get("scope"), c.req.valid("param").id);
    const paging = resolvePaging(c, q);
    const { rows, count } = await repo.listBatchInstructions(
      c.get("db"),
      c.get("scope"),
      batch.id,
      { status: q.status },
      paging,
      paging.needsCount,
    );
    return c.json(listBody(c, paging, rows, count), 200);
  });

  api.openapi(r.getInstructionRoute, async (c) =>
    c.json(await repo.getInstruction(c.get("db"), c.get("scope"), c.req.valid("param").id), 200),
  );

  api.openapi(r.listStatusEventsRoute, async (c) => {
    const q = c.req.valid("query");
    checkDateRange(q);
    const paging = resolvePaging(c, q);
    const { rows, count } = await repo.listStatusEvents(
      c.get("db"),
      c.get("scope"),
      {
        status: q.status,
        fromDate: q.from_date,
        toDate: q.to_date,
        batchId: q.batch_id,
        instructionId: q.instruction_id,
      },
      paging,
      paging.needsCount,
    );
    return c.json(listBody(c, paging, rows, count), 200);
  });
}
