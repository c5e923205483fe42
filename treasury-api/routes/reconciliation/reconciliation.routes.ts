/**
 * Reconciliation routes (docs/treasury-api.md#reconciliation;
 * docs/architecture.md#states-and-transitions: confirm / reject from `proposed` only). X-Company-ID is
 * optional: absent means every company the client sees (one review queue).
 */
import { z } from "zod";
import { MatchDecision, ReconciliationMatch } from "@treasury/contract/reconciliation";
import { idParams, json } from "../../lib/openapi";
import { MatchListQuery } from "@treasury/contract/list-queries";
import { defineRoute } from "../define-route";
import { listResponse, pagingQuery } from "../../lib/lists";

const decisionDoc =
  "From `proposed` only; any other state is 409 conflict with details { state, allowed }. Optional JSON body " +
  "(extension) { reviewer?, reason? } is kept for the audit trail. Emits reconciliation.match.updated.";

export const listMatchesRoute = defineRoute({
  method: "get",
  path: "/reconciliation/matches",
  tags: ["Reconciliation"],
  summary: "List reconciliation matches",
  description:
    "Newest first. Filters: state (proposed, confirmed, rejected), transaction_id, payment_instruction_id " +
    "(extensions).",
  scope: "read:reconciliation",
  company: "optional",
  request: {
    query: z.object({ ...pagingQuery, ...MatchListQuery.shape }).strict(),
  },
  responses: { 200: listResponse(ReconciliationMatch, "Matches") },
});

export const getMatchRoute = defineRoute({
  method: "get",
  path: "/reconciliation/matches/{id}",
  tags: ["Reconciliation"],
  summary: "Get a reconciliation match (extension)",
  scope: "read:reconciliation",
  company: "optional",
  request: { params: idParams },
  responses: { 200: json(ReconciliationMatch, "The match") },
});

export const confirmMatchRoute = defineRoute({
  method: "post",
  path: "/reconciliation/matches/{id}/confirm",
  tags: ["Reconciliation"],
  summary: "Confirm a proposed match",
  description:
    `${decisionDoc} A transaction or an instruction is confirmed in at most one match: confirming a ` +
    `match whose transaction or instruction is already confirmed in another match is 409 conflict (details.reason ` +
    `transaction_already_matched / instruction_already_matched, details.match_id).`,
  scope: "write:reconciliation",
  company: "optional",
  request: { params: idParams, body: { required: false, content: { "application/json": { schema: MatchDecision } } } },
  responses: { 200: json(ReconciliationMatch, "The confirmed match") },
});

export const rejectMatchRoute = defineRoute({
  method: "post",
  path: "/reconciliation/matches/{id}/reject",
  tags: ["Reconciliation"],
  summary: "Reject a proposed match",
  description: decisionDoc,
  scope: "write:reconciliation",
  company: "optional",
  request: { params: idParams, body: { required: false, content: { "application/json": { schema: MatchDecision } } } },
  responses: { 200: json(ReconciliationMatch, "The rejected match") },
});
