/**
 * Payment routes (docs/treasury-api.md#payments; docs/architecture.md#states-and-transitions): batches list / create
 * (201) / detail / submit (202), the batch's instructions (extension),
 * instruction detail and the status-event feed. Company-scoped: Form B needs
 * X-Company-ID.
 */
import { z } from "zod";
import {
  DebtorAccount,
  PaymentBatch,
  PaymentBatchCreate,
  PaymentBatchUpdate,
  PaymentInstruction,
  PaymentStatusEvent,
} from "@treasury/contract/payments";
import { idParams, json } from "../../lib/openapi";
import {
  BatchListQuery,
  InstructionListQuery,
  InstructionLookupQuery,
  StatusEventListQuery,
} from "@treasury/contract/list-queries";
import { defineRoute } from "../define-route";
import { listResponse, pagingQuery } from "../../lib/lists";

export const listBatchesRoute = defineRoute({
  method: "get",
  path: "/payments/batches",
  tags: ["Payments"],
  summary: "List payment batches",
  description:
    "Newest first (created_at, id descending). `status` filters on the batch status; from_date / to_date on the UTC " +
    "date of created_at.",
  scope: "read:payments",
  company: "required",
  request: { query: z.object({ ...pagingQuery, ...BatchListQuery.shape }).strict() },
  responses: { 200: listResponse(PaymentBatch, "Payment batches") },
});

export const createBatchRoute = defineRoute({
  method: "post",
  path: "/payments/batches",
  tags: ["Payments"],
  summary: "Create a payment batch",
  description:
    "Validates everything and names each bad field in details.errors (e.g. instructions[3].creditor_iban): " +
    "company_id equals X-Company-ID; " +
    "currency an ISO 4217 code; 1 to 10,000 instructions; amounts positive decimal strings with no more fraction " +
    "digits than the currency allows; " +
    "instruction currency equals the batch currency; creditor_name 1–140 characters; creditor_iban a valid IBAN " +
    "(stored in electronic format); " +
    "end_to_end_id 1–35 characters, unique within the batch; requested_execution_date not before today in the company's " +
    "time zone (its country's zone, e.g. Europe/Oslo for NO; UTC for a country without a known zone). A " +
    "rejected request creates nothing. " +
    "total_amount is the exact sum. The batch starts in status created. This route accepts bodies up to 8 MiB " +
    "(10,000 instructions do not fit in 1 MiB). " +
    "Extension: an optional initiator (1–200 characters, default the client_id) is stored and returned; that " +
    "approver may not approve the batch (four-eyes). " +
    "Extensions of the payment run: reference (the batch's name, 1–140 characters); debtor_account_id (an active " +
    "account of the company in the batch currency, else 400 naming the field; the bank debits it); per " +
    "instruction creditor_bic (ISO 9362) and remittance_information (unstructured text of 1–140 characters, or " +
    "an ISO 11649 creditor reference whose check digits are verified).",
  scope: "write:payments",
  company: "required",
  request: { body: { required: true, content: { "application/json": { schema: PaymentBatchCreate } } } },
  responses: { 201: json(PaymentBatch, "Created") },
});

export const getBatchRoute = defineRoute({
  method: "get",
  path: "/payments/batches/{id}",
  tags: ["Payments"],
  summary: "Get a payment batch",
  scope: "read:payments",
  company: "required",
  request: { params: idParams },
  responses: { 200: json(PaymentBatch, "The batch") },
});

export const updateBatchRoute = defineRoute({
  method: "patch",
  path: "/payments/batches/{id}",
  tags: ["Payments"],
  summary: "Edit a created payment batch (extension)",
  description:
    "Only in status created: rename (reference), move (requested_execution_date), repoint (debtor_account_id) or " +
    "replace all instructions (the rules of create; their currency must be the batch's; a new " +
    "requested_execution_date not before today in the company's time zone). null clears reference, " +
    "date or debtor account. 200 with the batch. Any other state: 409 conflict with details.state and " +
    "details.allowed.",
  scope: "write:payments",
  company: "required",
  request: {
    params: idParams,
    body: { required: true, content: { "application/json": { schema: PaymentBatchUpdate } } },
  },
  responses: { 200: json(PaymentBatch, "The edited batch") },
});

export const discardBatchRoute = defineRoute({
  method: "delete",
  path: "/payments/batches/{id}",
  tags: ["Payments"],
  summary: "Discard a created payment batch (extension)",
  description:
    "Only in status created: the batch and its instructions are deleted (nothing was submitted, approved or " +
    "paid). 204. Any other state: 409 conflict with details.state and details.allowed; unknown: 404.",
  scope: "write:payments",
  company: "required",
  request: { params: idParams },
  responses: { 204: { description: "Discarded" } },
});

export const submitBatchRoute = defineRoute({
  method: "post",
  path: "/payments/batches/{id}/submit",
  tags: ["Payments"],
  summary: "Submit a payment batch for approval",
  description:
    "created → pending_approval, and an approval request is opened (required_count 2 when total_amount is at or " +
    "above the four-eyes threshold of the batch currency, else 1). " +
    "202 with the batch. No body (an empty JSON object is accepted). Any other state: 409 conflict with " +
    "details.state and details.allowed.",
  scope: "write:payments",
  company: "required",
  request: { params: idParams },
  responses: { 202: json(PaymentBatch, "Submission accepted; the batch, now pending_approval") },
});

export const getBatchDebtorAccountRoute = defineRoute({
  method: "get",
  path: "/payments/batches/{id}/debtor-account",
  tags: ["Payments"],
  summary: "The account a batch is paid from (extension)",
  description:
    "The account chosen at creation (debtor_account_id) while it is active, else the company's first active " +
    "account in the batch currency, ordered by name then id: the account the bank debits when the batch settles. " +
    "With the full IBAN and the BIC, for a payment file (pain.001). 404 when the company has no active account in " +
    "the batch currency.",
  scope: "read:payments",
  company: "required",
  request: { params: idParams },
  responses: { 200: json(DebtorAccount, "The debtor account") },
});

export const listBatchInstructionsRoute = defineRoute({
  method: "get",
  path: "/payments/batches/{id}/instructions",
  tags: ["Payments"],
  summary: "Instructions of a batch (extension)",
  description: "In batch order, each with its current status.",
  scope: "read:payments",
  company: "required",
  request: { params: idParams, query: z.object({ ...pagingQuery, ...InstructionListQuery.shape }).strict() },
  responses: { 200: listResponse(PaymentInstruction, "Instructions") },
});

export const lookupInstructionsRoute = defineRoute({
  method: "get",
  path: "/payments/instructions",
  tags: ["Payments"],
  summary: "Payment instructions by id (extension)",
  description:
    "Extension: up to 100 instructions named by `ids` (comma-separated UUIDs) in one call, in the order of `ids`, " +
    "each with batch_id, batch_reference (the batch's reference, null without one) and its current status; ids that do not exist or lie outside the caller's scope are left " +
    "out. X-Company-ID is optional: absent means every company the client sees.",
  scope: "read:payments",
  company: "optional",
  request: { query: z.object({ ...pagingQuery, ...InstructionLookupQuery.shape }).strict() },
  responses: { 200: listResponse(PaymentInstruction, "Instructions") },
});

export const getInstructionRoute = defineRoute({
  method: "get",
  path: "/payments/instructions/{id}",
  tags: ["Payments"],
  summary: "Get a payment instruction",
  scope: "read:payments",
  company: "required",
  request: { params: idParams },
  responses: { 200: json(PaymentInstruction, "The instruction, with batch_id, batch_reference and status") },
});

export const listStatusEventsRoute = defineRoute({
  method: "get",
  path: "/payments/status-events",
  tags: ["Payments"],
  summary: "List payment status events",
  description:
    "One event per instruction status change (accepted, settled, rejected, cancelled), oldest first (occurred_at, " +
    "id). " +
    "from_date / to_date filter on the UTC date of occurred_at. Extensions: batch_id and instruction_id filters.",
  scope: "read:payments",
  company: "required",
  request: {
    query: z.object({ ...pagingQuery, ...StatusEventListQuery.shape }).strict(),
  },
  responses: { 200: listResponse(PaymentStatusEvent, "Status events") },
});
