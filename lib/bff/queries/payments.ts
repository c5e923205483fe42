/**
 * Payment queries and writes (spec §4 Payments), company-scoped. A batch is
 * created for the selected company only (`company_id` must match it).
 */
import "server-only";
import type { z } from "zod";
import type { PaymentBatchCreate } from "../../contract";
import { companyCall, type BffContext } from "../context";
import { BffError } from "../errors";
import { pageParams, type BatchInstructionsQuery, type BatchesQuery, type StatusEventsQuery } from "../inputs";
import { treasury } from "../treasury";
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
 * Creates a batch for the selected company. The API's four-eyes `initiator` is
 * always the signed-in user's id (whatever the browser sent), the same id the
 * approve / reject calls send as `approver`, so the API refuses the creator's
 * own approval as well as the dashboard's check does.
 * @throws BffError 400 when company_id is not the selected company.
 */
export async function createBatch(ctx: BffContext, body: PaymentBatchCreate, idempotencyKey: string) {
  const call = companyCall(ctx);
  if (body.company_id !== call.companyId) {
    throw new BffError("validation_error", "company_id must be the selected company", {
      errors: { company_id: ["must be the selected company"] },
    });
  }
  return treasury().createBatch({ ...call, idempotencyKey }, { ...body, initiator: ctx.user.id });
}

export async function getBatch(ctx: BffContext, id: string) {
  return treasury().getBatch(companyCall(ctx), id);
}

/** 202: the batch, now pending approval (or null when the API sends no body). */
export async function submitBatch(ctx: BffContext, id: string, idempotencyKey: string) {
  return treasury().submitBatch({ ...companyCall(ctx), idempotencyKey }, id);
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
