/**
 * Payment queries and writes (spec §4 Payments), company-scoped. A batch is
 * created for the selected company only (`company_id` must match it).
 */
import "server-only";
import type { z } from "zod";
import type { PaymentBatchCreate } from "../../contract";
import { companyCall, type BffContext, type WriteScope } from "../context";
import { pageParams, type BatchInstructionsQuery, type BatchesQuery, type StatusEventsQuery } from "../inputs";
import { treasury } from "../../server/treasury";
import { toBffPage } from "./page";

export async function listBatches(ctx: BffContext, q: z.output<typeof BatchesQuery> = {}) {
  return toBffPage(
    await treasury().listBatches(companyCall(ctx), {
      ...pageParams(q),
      status: q.status,
      from_date: q.from_date,
      to_date: q.to_date,
    }),
  );
}

/**
 * Creates a batch in the company of `ctx.write` (the route has checked that
 * the body's `company_id` is the selected company). The API's four-eyes
 * `initiator` is always the signed-in user's id (whatever the browser sent),
 * the same id the approve / reject calls send as `approver`, so the API
 * refuses the creator's own approval as well as the dashboard's check does.
 */
export async function createBatch(ctx: WriteScope, body: PaymentBatchCreate) {
  return treasury().createBatch(ctx.write, { ...body, initiator: ctx.user.id });
}

export async function getBatch(ctx: BffContext, id: string) {
  return treasury().getBatch(companyCall(ctx), id);
}

/** 202: the batch, now pending approval (or null when the API sends no body). */
export async function submitBatch(ctx: WriteScope, id: string) {
  return treasury().submitBatch(ctx.write, id);
}

export async function listBatchInstructions(
  ctx: BffContext,
  id: string,
  q: z.output<typeof BatchInstructionsQuery> = {},
) {
  return toBffPage(
    await treasury().listBatchInstructions(companyCall(ctx), id, { ...pageParams(q), status: q.status }),
  );
}

export async function getInstruction(ctx: BffContext, id: string) {
  return treasury().getInstruction(companyCall(ctx), id);
}

export async function listStatusEvents(ctx: BffContext, q: z.output<typeof StatusEventsQuery> = {}) {
  return toBffPage(
    await treasury().listStatusEvents(companyCall(ctx), {
      ...pageParams(q),
      status: q.status,
      from_date: q.from_date,
      to_date: q.to_date,
      batch_id: q.batch_id,
      instruction_id: q.instruction_id,
    }),
  );
}
