/**
 * Payment batches (spec §4 Payments), company-scoped: the list the payments
 * page and its route share, and batch creation, which sets the initiator.
 */
import "server-only";
import type { z } from "zod";
import type { PaymentBatchCreate } from "../../contract";
import { treasury } from "../../server/treasury";
import { companyCall, type BffContext, type WriteScope } from "../context";
import type { BatchesQuery } from "../inputs";
import { clientFilters, toBffPage } from "./page";

/** The selected company's batches, one page. */
export async function listBatches(ctx: BffContext, q: z.output<typeof BatchesQuery> = {}) {
  return toBffPage(await treasury().listBatches(companyCall(ctx), clientFilters(q)));
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
