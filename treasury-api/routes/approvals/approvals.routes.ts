/**
 * Approval routes (docs/treasury-api.md#approvals; docs/architecture.md#four-eyes): the queue
 * of open approval requests, approve and reject. X-Company-ID is optional:
 * absent means every company linked to the client (Form B) or of the tenant
 * (Form A), so one approver sees one queue.
 */
import { z } from "zod";
import { ApprovalDecisionBody, ApprovalRequest } from "@treasury/contract/approvals";
import { idParams, json } from "../../lib/openapi";
import { defineRoute } from "../define-route";
import { listResponse, pagingQuery } from "../../lib/lists";

export const listPendingRoute = defineRoute({
  method: "get",
  path: "/approvals/pending",
  tags: ["Approvals"],
  summary: "List open approval requests",
  description: "Requests in state pending or partially_approved, oldest first (created_at, id).",
  scope: "approve:payments",
  company: "optional",
  request: { query: z.object({ ...pagingQuery }).strict() },
  responses: { 200: listResponse(ApprovalRequest, "Open approval requests") },
});

export const getApprovalRoute = defineRoute({
  method: "get",
  path: "/approvals/{id}",
  tags: ["Approvals"],
  summary: "Get an approval request (extension)",
  scope: "approve:payments",
  company: "optional",
  request: { params: idParams },
  responses: { 200: json(ApprovalRequest, "The approval request, in any state") },
});

const decisionDoc =
  "Optional JSON body (extension) { approver?, reason? }: `approver` names the person when one OAuth client acts " +
  "for many " +
  "(a dashboard's server); it defaults to the client's client_id. One approver counts once per request: a second " +
  "decision by the same approver is 409 " +
  "(details.reason = already_decided). A request that is approved or rejected already: 409 with details.state and " +
  "details.allowed.";

/** Approve and reject take the same request (optional decision body) and answer the same way. */
const decisionRequest = {
  params: idParams,
  body: { required: false, content: { "application/json": { schema: ApprovalDecisionBody } } },
} as const;
const decisionResponses = { 200: json(ApprovalRequest, "The approval request after the decision") } as const;

export const approveRoute = defineRoute({
  method: "post",
  path: "/approvals/{id}/approve",
  tags: ["Approvals"],
  summary: "Approve",
  description:
    "Counts one approval: below required_count the request becomes partially_approved, at it approved, and the " +
    "payment batch moves to approved " +
    `(the simulated bank then takes it). 200 with the ApprovalRequest. ${decisionDoc} ` +
    "Four-eyes (extension): 403 permission_denied with details.reason four_eyes when the approver is the batch's " +
    "initiator (rule initiator), " +
    "or when required_count > 1 and the client would count twice without naming two approvers (rule client_as_itself).",
  scope: "approve:payments",
  company: "optional",
  request: decisionRequest,
  responses: decisionResponses,
});

export const rejectRoute = defineRoute({
  method: "post",
  path: "/approvals/{id}/reject",
  tags: ["Approvals"],
  summary: "Reject",
  description:
    "One rejection rejects the request; the payment batch moves to rejected and its instructions to cancelled (one " +
    "status event and one " +
    `payment.status.updated webhook each). 200 with the ApprovalRequest. ${decisionDoc}`,
  scope: "approve:payments",
  company: "optional",
  request: decisionRequest,
  responses: decisionResponses,
});
