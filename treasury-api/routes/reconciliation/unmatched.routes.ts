/**
 * Extensions of the reconciliation area: the unmatched items and the manual
 * match (the spec can list proposals and decide them, nothing more). Both are
 * advertised in the OpenAPI document, which is how a client learns of them.
 */
import { z } from "zod";
import { ManualMatchCreate, ReconciliationMatch, UnmatchedItem, UnmatchedListQuery } from "@treasury/contract";
import { json } from "../../lib/openapi";
import { listResponse, pagingQuery } from "../../lib/lists";
import { defineRoute } from "../define-route";

export const listUnmatchedRoute = defineRoute({
  method: "get",
  path: "/reconciliation/unmatched",
  tags: ["Reconciliation"],
  summary: "Unmatched instructions or transactions, and rejected instructions (extension)",
  description:
    "Extension: kind=instruction lists settled payment instructions, kind=transaction booked debit transactions, " +
    "that no confirmed match names (proposals awaiting review do not count; proposed_matches gives their number). " +
    "kind=rejected lists payment instructions the bank rejected, with its ISO 20022 reason and text (reason, " +
    "reason_text): no booking will come for them and they are never proposed. " +
    "date is the settlement date of an instruction (its settled status event, else the requested execution date), " +
    "the day a rejected one was rejected, or the value date of a transaction. Filters: from_date / to_date on that date, account_id, currency, min_amount / " +
    "max_amount (absolute), q (counterparty name, end-to-end id, remittance). sort: date (oldest first, default), " +
    "-date, amount, -amount. X-Company-ID is optional: absent means every company the client sees.",
  scope: "read:reconciliation",
  company: "optional",
  request: { query: z.object({ ...pagingQuery, ...UnmatchedListQuery.shape }).strict() },
  responses: { 200: listResponse(UnmatchedItem, "Unmatched items") },
});

export const createManualMatchRoute = defineRoute({
  method: "post",
  path: "/reconciliation/matches",
  tags: ["Reconciliation"],
  summary: "Match an instruction and a transaction by hand (extension)",
  description:
    "Extension: creates a match in state confirmed (origin manual) between a settled or accepted payment " +
    "instruction and a debit transaction of the same company and currency, attributed to the calling client and " +
    "the optional reviewer, with the optional note as its reason; its score is the matcher's score of the pair. A " +
    "proposal of the same pair is confirmed instead (same id). 404 when either id is not visible; 400 naming " +
    "transaction_id when it is not a debit of the instruction's company and currency; 409 conflict when the " +
    "instruction is in another state (details { state, allowed }) or either side is already confirmed in a match " +
    "(details.reason instruction_already_matched / transaction_already_matched, details.match_id). Emits " +
    "reconciliation.match.created (or .updated for a confirmed proposal).",
  scope: "write:reconciliation",
  company: "optional",
  request: { body: { required: true, content: { "application/json": { schema: ManualMatchCreate } } } },
  responses: { 201: json(ReconciliationMatch, "The confirmed match") },
});
