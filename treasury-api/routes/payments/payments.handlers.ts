/** Payment handlers: batches, their instructions and debtor account, instructions and status events. */
import { z } from "zod";
import type { Context } from "hono";
import { requireCaller, type AppEnv, type AppRouteHandler } from "../../lib/context";
import { validationError } from "../../lib/validation";
import { IsoDate, Uuid } from "@treasury/contract/common";
import { fieldError } from "../../lib/errors";
import { listHandler } from "../../lib/lists";
import { lookupIds } from "@treasury/contract/list-queries";
import type { PaymentBatch } from "@treasury/contract/payments";
import * as repo from "../../db/repos/payments";
import { bankDeliveryOf } from "../../channels/exchange";
import * as r from "./payments.routes";

export const listBatches = listHandler(r.listBatchesRoute, {
  load: (c, q, paging) =>
    repo.listBatches(
      c.get("db"),
      c.get("scope"),
      { status: q.status, fromDate: q.from_date, toDate: q.to_date },
      paging,
      paging.needsCount,
    ),
});

export const createBatch: AppRouteHandler<typeof r.createBatchRoute> = async (c) => {
  const body = c.req.valid("json");
  const caller = requireCaller(c);
  const header = c.get("companyId");
  // company_id must equal the X-Company-ID header; a Form A call without the header may name any company of its tenant.
  if (header ? body.company_id !== header : !caller.companyIds.includes(body.company_id)) {
    throw fieldError("company_id", header ? "must equal the X-Company-ID header" : "is not a company of this tenant");
  }
  const now = c.get("config").now?.() ?? new Date();
  return c.json(unsent(await repo.createBatch(c.get("db"), c.get("scope"), caller.clientId, body, now)), 201);
};

/**
 * A batch answered by a write that leaves it unsent (create, update, submit): `bank_delivery` is null, as its read
 * would say at that moment, so every single-batch response has the same fields (docs/bank-channels.md "Push").
 */
function unsent(batch: PaymentBatch): PaymentBatch {
  return { ...batch, bank_delivery: null };
}

/** One batch, with its payment file's delivery to the bank (`bank_delivery`, docs/bank-channels.md "Push"). */
export const getBatch: AppRouteHandler<typeof r.getBatchRoute> = async (c) => {
  const row = await repo.getBatchRow(c.get("db"), c.get("scope"), c.req.valid("param").id);
  return c.json({ ...repo.toBatch(row), bank_delivery: await bankDeliveryOf(c.get("db"), row.id) }, 200);
};

export const updateBatch: AppRouteHandler<typeof r.updateBatchRoute> = async (c) => {
  const now = c.get("config").now?.() ?? new Date();
  return c.json(
    unsent(await repo.updateBatch(c.get("db"), c.get("scope"), c.req.valid("param").id, c.req.valid("json"), now)),
    200,
  );
};

export const discardBatch: AppRouteHandler<typeof r.discardBatchRoute> = async (c) => {
  await repo.discardBatch(c.get("db"), c.get("scope"), c.req.valid("param").id);
  return c.body(null, 204);
};

export const submitBatch: AppRouteHandler<typeof r.submitBatchRoute> = async (c) =>
  c.json(
    unsent(
      await repo.submitBatch(c.get("db"), c.get("scope"), c.req.valid("param").id, c.get("config").fourEyesThresholds),
    ),
    202,
  );

export const getBatchDebtorAccount: AppRouteHandler<typeof r.getBatchDebtorAccountRoute> = async (c) =>
  c.json(await repo.getDebtorAccount(c.get("db"), c.get("scope"), c.req.valid("param").id), 200);

export const listBatchInstructions = listHandler(r.listBatchInstructionsRoute, {
  parent: (c) => repo.getBatchRow(c.get("db"), c.get("scope"), c.req.valid("param").id),
  load: (c, q, paging, batch) =>
    repo.listBatchInstructions(c.get("db"), c.get("scope"), batch.id, { status: q.status }, paging, paging.needsCount),
});

export const getInstruction: AppRouteHandler<typeof r.getInstructionRoute> = async (c) =>
  c.json(await repo.getInstruction(c.get("db"), c.get("scope"), c.req.valid("param").id), 200);

export const listStatusEvents = listHandler(r.listStatusEventsRoute, {
  load: (c, q, paging) =>
    repo.listStatusEvents(
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
    ),
});

/** Extension: the instructions named by `ids`, one page of them (the lookup holds at most 100). */
export const lookupInstructions = listHandler(r.lookupInstructionsRoute, {
  load: async (c, q, paging) => {
    const rows = await repo.lookupInstructions(c.get("db"), c.get("scope"), lookupIds(q.ids));
    return { rows: rows.slice(paging.offset, paging.offset + paging.limit), count: rows.length };
  },
});

type ValidationResult = { target: string } & ({ success: true } | { success: false; error: z.ZodError });

/**
 * Validation hook of create and edit: when the contract refuses the body, a past execution date is named too
 * (today in the company's time zone needs the company's country, which the schema cannot read), so one 400 lists
 * every bad field. The company is the body's `company_id` (create) or the batch's (edit, path `id`); a malformed id
 * or one outside the scope adds nothing. A body the contract accepts is checked again by the repository.
 */
export function batchBodyHook(result: ValidationResult, c: Context<AppEnv>): Promise<never> | undefined {
  return result.success ? undefined : refuseBody(result.error, result.target, c);
}

/** The 400 of a refused body, with a past execution date added (`batchBodyHook`). */
async function refuseBody(error: z.ZodError, target: string, c: Context<AppEnv>): Promise<never> {
  const issues = [...error.issues];
  if (target === "json" && !issues.some((i) => i.path[0] === "requested_execution_date")) {
    const raw: unknown = await c.req.json().catch(() => null);
    const body = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
    const date = IsoDate.safeParse(body.requested_execution_date);
    const id = Uuid.safeParse(c.req.param("id") ?? body.company_id);
    if (date.success && id.success) {
      const db = c.get("db");
      const scope = c.get("scope");
      const companyId = c.req.param("id")
        ? await repo.getBatchRow(db, scope, id.data).then(
            (b) => b.companyId,
            () => null,
          )
        : id.data;
      const now = c.get("config").now?.() ?? new Date();
      const problem = companyId ? await repo.executionDateProblemFor(db, scope, companyId, date.data, now) : null;
      if (problem)
        issues.push({ code: "custom", path: ["requested_execution_date"], message: problem, input: date.data });
    }
  }
  throw validationError(new z.ZodError(issues), target);
}
