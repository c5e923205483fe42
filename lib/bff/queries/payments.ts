/**
 * Payment batches (docs/treasury-api.md#payments), company-scoped: the list the payments
 * page and its route share, batch creation, which sets the initiator, and the
 * edit / discard of a batch not yet submitted (extensions).
 *
 * The payment-run fields (batch `reference`, `debtor_account_id`, per
 * instruction `creditor_bic`, `remittance_information`) and the edit / discard
 * operations are sent only to an API whose OpenAPI document advertises them
 * (`capabilities`); otherwise the request is refused here with a 400 naming
 * the field (or a 409 for the operation) and nothing is sent upstream.
 */
import "server-only";
import type { z } from "zod";
import { BIC_REQUIRED_MESSAGE, bicMissing } from "@treasury/contract/bic-rule";
import type { PaymentBatchCreate, PaymentBatchUpdate } from "@treasury/contract";
import { treasury } from "../../server/treasury";
import { capabilities } from "../capabilities";
import { companyCall, type BffContext, type WriteScope } from "../context";
import { BffError } from "../errors";
import type { BatchesQuery } from "../inputs";
import { clientFilters, toBffPage } from "./page";
import type { PaymentRunSupport } from "../../views/payment-run";
import { executionDateProblem } from "@treasury/contract/business-date";

export type { PaymentRunSupport };

/** The payment-run extensions the configured API advertises. */
export async function paymentRunSupport(): Promise<PaymentRunSupport> {
  const caps = await capabilities();
  return {
    fields: caps.has("payments.run_fields"),
    edit: caps.has("payments.batch_edit"),
    discard: caps.has("payments.batch_discard"),
  };
}

const UNSUPPORTED = "is not supported by the connected Treasury API (its OpenAPI document does not list it)";

/** Field errors for extension fields in `body` the API does not advertise (empty when it does, or none is used). */
type RunFields = {
  reference?: string | null;
  debtor_account_id?: string | null;
  requested_execution_date?: string | null;
  instructions?: PaymentBatchCreate["instructions"];
};

function unsupportedFields(body: RunFields): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (body.reference !== undefined) errors.reference = [UNSUPPORTED];
  if (body.debtor_account_id !== undefined) errors.debtor_account_id = [UNSUPPORTED];
  body.instructions?.forEach((ins, i) => {
    if (ins.creditor_bic !== undefined) errors[`instructions[${i}].creditor_bic`] = [UNSUPPORTED];
    if (ins.remittance_information !== undefined) errors[`instructions[${i}].remittance_information`] = [UNSUPPORTED];
  });
  return errors;
}

/** The execution-date rule (today in the company's time zone), shared with the form and the local API. */
export { executionDateProblem };

/**
 * The checks the dashboard adds before a create or edit goes upstream: the
 * execution date is not before today where the company is (an API other than
 * the local one may compare with UTC), extension fields only when the API advertises them, and with
 * them a BIC for every IBAN outside SEPA (inside SEPA the IBAN identifies the bank).
 * @throws BffError 400 naming each refused field.
 */
async function checkBatchBody(ctx: WriteScope, body: RunFields): Promise<void> {
  const errors: Record<string, string[]> = {};
  const dateProblem = executionDateProblem(body.requested_execution_date, ctx.company?.country);
  if (dateProblem) errors.requested_execution_date = [dateProblem];
  if (!(await paymentRunSupport()).fields) Object.assign(errors, unsupportedFields(body));
  else
    body.instructions?.forEach((ins, i) => {
      if (bicMissing(ins.creditor_iban, ins.creditor_bic))
        errors[`instructions[${i}].creditor_bic`] = [`${BIC_REQUIRED_MESSAGE} (${ins.creditor_iban.slice(0, 2)})`];
    });
  const first = Object.entries(errors)[0];
  if (first) throw new BffError("validation_error", `${first[0]} ${first[1][0]}`, { errors });
}

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
 * @throws BffError 400 for a past date (company time zone) or unsupported extension fields.
 */
export async function createBatch(ctx: WriteScope, body: PaymentBatchCreate) {
  await checkBatchBody(ctx, body);
  return treasury().createBatch(ctx.write, { ...body, initiator: ctx.user.id });
}

/**
 * Edits a batch still in status `created` (PATCH extension): the API answers
 * 409 once it is submitted. @throws BffError 409 when the API does not offer
 * editing; 400 as `createBatch`.
 */
export async function updateBatch(ctx: WriteScope, id: string, body: PaymentBatchUpdate) {
  if (!(await paymentRunSupport()).edit)
    throw new BffError("conflict", "The connected Treasury API does not offer editing a batch; create a new one.");
  await checkBatchBody(ctx, body);
  return treasury().updateBatch(ctx.write, id, body);
}

/**
 * Discards a batch still in status `created` (DELETE extension).
 * @throws BffError 409 when the API does not offer it (or, from the API, once submitted).
 */
export async function discardBatch(ctx: WriteScope, id: string): Promise<void> {
  if (!(await paymentRunSupport()).discard)
    throw new BffError("conflict", "The connected Treasury API does not offer discarding a batch.");
  await treasury().discardBatch(ctx.write, id);
}
