/**
 * The reopen extension (not in the public spec): a confirmed match back to `proposed` within 24 hours of its
 * confirmation. Advertised in the OpenAPI document, where the dashboard detects it (capability
 * `reconciliation.reopen`).
 */
import { MatchDecision, ReconciliationMatch } from "@treasury/contract/reconciliation";
import { idParams, json } from "../../lib/openapi";
import { defineRoute } from "../define-route";

export const reopenMatchRoute = defineRoute({
  method: "post",
  path: "/reconciliation/matches/{id}/reopen",
  tags: ["Reconciliation"],
  summary: "Reopen a confirmed match (extension)",
  description:
    "From `confirmed` only, within 24 hours of the confirmation: the match goes back to `proposed` and its " +
    "decision is cleared (kept in the API's reopen audit with the caller, and the optional body's reviewer and " +
    "reason). Another state is 409 conflict with details { state, allowed }; past the 24 hours 409 with " +
    "details.reason reopen_window_passed. Idempotency-Key required, as on every write. Emits " +
    "reconciliation.match.updated.",
  scope: "write:reconciliation",
  company: "optional",
  request: { params: idParams, body: { required: false, content: { "application/json": { schema: MatchDecision } } } },
  responses: { 200: json(ReconciliationMatch, "The match, proposed again") },
});
