/**
 * Approval repositories (docs/treasury-api.md#approvals;
 * docs/architecture.md#states-and-transitions and #four-eyes): the open queue, approve and reject. Each decision
 * runs in one transaction with the approval request and its batch locked, so
 * two approvers deciding at once count exactly once each.
 */
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { ApprovalRequest, ApprovalState } from "@treasury/contract/approvals";
import type { BankSpeed } from "../../config";
import { queryRows, type Db, type DbOrTx } from "../client";
import { approvalDecisions, approvalRequests, paymentBatches, paymentInstructions } from "../schema";
import { bankDueAt } from "../../domain/bank-simulator";
import { enqueueBatchPush } from "../../channels/exchange";
import {
  APPROVAL_MACHINE,
  BATCH_MACHINE,
  INSTRUCTION_MACHINE,
  OPEN_APPROVAL_STATES,
  approvalStateAfterApprove,
  transition,
} from "../../domain/payment-states";
import { ApiError, notFound } from "../../lib/errors";
import { isoTimestamp } from "../../lib/format";
import { scopeWhere, type DataScope } from "../../lib/scope";
import { newId } from "../../lib/secrets";
import { applyStatusChanges } from "./payments";
import { mappedPage, type Page } from "./paging";

type ApprovalRow = typeof approvalRequests.$inferSelect;

export function toApprovalRequest(r: ApprovalRow): ApprovalRequest {
  return {
    id: r.id,
    object_id: r.objectId,
    state: r.state as ApprovalState,
    required_count: r.requiredCount,
    approved_count: r.approvedCount,
    object_type: "payment_batch",
    created_at: isoTimestamp(r.createdAt),
    company_id: r.companyId,
  };
}

/** Open requests (pending, partially_approved) in scope, oldest first. */
export async function listPending(db: Db, scope: DataScope, page: Page, withCount: boolean) {
  const conds = [
    ...scopeWhere(scope, approvalRequests.tenantId, approvalRequests.companyId),
    inArray(approvalRequests.state, [...OPEN_APPROVAL_STATES]),
  ];
  const order = [asc(approvalRequests.createdAt), asc(approvalRequests.id)];
  return mappedPage(db, approvalRequests, conds, order, page, withCount, toApprovalRequest);
}

export async function getApproval(db: Db, scope: DataScope, id: string): Promise<ApprovalRequest> {
  const [row] = await db
    .select()
    .from(approvalRequests)
    .where(
      and(eq(approvalRequests.id, id), ...scopeWhere(scope, approvalRequests.tenantId, approvalRequests.companyId)),
    );
  if (!row) throw notFound("Approval request");
  return toApprovalRequest(row);
}

export interface Decision {
  kind: "approve" | "reject";
  /** Internal uuid of the deciding OAuth client. */
  clientId: string;
  /** The person (or, by default, the client_id) the decision counts for. */
  approver: string;
  reason: string | null;
  bankSpeed: BankSpeed;
}

/** 403 for an approval the four-eyes rule refuses; `rule` says which part. */
function fourEyes(message: string, rule: "initiator" | "client_as_itself"): ApiError {
  return new ApiError("permission_denied", message, { reason: "four_eyes", rule });
}

/**
 * Four-eyes at API level (docs/architecture.md#four-eyes), checked before an
 * approval is recorded:
 * - the batch's initiator never approves it (compared ignoring case);
 * - an approver equal to the client's own client_id (the default when the body
 *   names none) stands for the whole client. When `required_count` > 1 it is
 *   refused if the same client has already approved this request under any
 *   name, and a client that approved as itself cannot approve again under
 *   another name: one client alone never supplies two approvals without naming
 *   two people.
 * @throws 403 permission_denied `{ reason: "four_eyes", rule: "initiator" | "client_as_itself" }`
 */
async function checkFourEyes(tx: DbOrTx, req: ApprovalRow, d: Decision): Promise<void> {
  // A row of scalar subqueries answers exactly one row, and `payment_batches.initiator` is NOT NULL.
  const [row] = (await queryRows<FourEyesFacts>(
    tx,
    sql`select (select initiator from payment_batches where id = ${req.objectId}) as initiator,
               (select client_id from oauth_clients where id = ${d.clientId}) as client_name,
               exists (select 1 from approval_decisions
                       where approval_request_id = ${req.id} and client_id = ${d.clientId} and decision =
                         'approve') as approved,
               exists (select 1 from approval_decisions ad join oauth_clients c on c.id = ad.client_id
                       where ad.approval_request_id = ${req.id} and ad.client_id = ${d.clientId} and ad.decision =
                         'approve'
                         and ad.approver = c.client_id) as approved_as_itself`,
  )) as [FourEyesFacts];
  if (row.initiator.toLowerCase() === d.approver.toLowerCase()) {
    throw fourEyes(
      `${d.approver} initiated this payment batch and cannot approve it; another person must (four-eyes)`,
      "initiator",
    );
  }
  // Only a request needing two or more approvals can be open after this client approved: with one required, its
  // first approval closes it, and a closed request is refused before four-eyes. So these two checks need no
  // `required_count > 1` guard of their own.
  if (d.approver === row.client_name && row.approved) {
    throw fourEyes(
      "This client has already approved this request; a further approval must name another approver (four-eyes)",
      "client_as_itself",
    );
  }
  if (row.approved_as_itself) {
    throw fourEyes(
      "This client approved this request without naming an approver, so it cannot add another approval (four-eyes)",
      "client_as_itself",
    );
  }
}

/** What `checkFourEyes` reads in one query: the batch's initiator and this client's earlier approvals. */
interface FourEyesFacts {
  initiator: string;
  /** The client's own client_id, the approver name that stands for the whole client. */
  client_name: string | null;
  approved: boolean;
  approved_as_itself: boolean;
}

/**
 * Stores one approver's decision on a request, once per approver (the unique key decides a race).
 * @throws 409 `{ reason: "already_decided", approver, state }` when this approver decided before
 */
async function recordDecision(tx: DbOrTx, req: ApprovalRow, d: Decision): Promise<void> {
  const recorded = await tx
    .insert(approvalDecisions)
    .values({
      id: newId(),
      approvalRequestId: req.id,
      clientId: d.clientId,
      approver: d.approver,
      decision: d.kind,
      reason: d.reason,
    })
    .onConflictDoNothing()
    .returning({ id: approvalDecisions.id });
  if (recorded.length === 0) {
    throw new ApiError(
      "conflict",
      `${d.approver} has already decided on this approval request; one approver counts once`,
      { reason: "already_decided", approver: d.approver, state: req.state },
    );
  }
}

/**
 * The batch of a request that just closed, inside the decision's transaction: locks it (`for update`), moves it
 * to approved (due for the bank's take at `d.bankSpeed`, and queued as a file when a bank connection serves its
 * account) or rejected (its pending instructions cancelled with status events and webhooks).
 * @throws Error when the request points at a missing batch; the state machine's 409 for a batch not in review
 */
async function closeBatch(
  tx: DbOrTx,
  req: ApprovalRow,
  state: "approved" | "rejected",
  d: Decision,
  now: Date,
): Promise<void> {
  const nowIso = now.toISOString();
  const [batch] = await tx.select().from(paymentBatches).where(eq(paymentBatches.id, req.objectId)).for("update");
  if (!batch) throw new Error(`approval request ${req.id} points at a missing batch`);
  const op = state === "approved" ? "approve" : "reject";
  const batchStatus = transition(BATCH_MACHINE, batch.status, op);
  await tx
    .update(paymentBatches)
    .set({
      status: batchStatus,
      updatedAt: nowIso,
      bankNextStepAt: state === "approved" ? bankDueAt(d.bankSpeed, "take", now).toISOString() : null,
    })
    .where(eq(paymentBatches.id, batch.id));
  // A batch paid from an account a bank connection serves travels as a file (docs/bank-channels.md "Push").
  if (state === "approved") await enqueueBatchPush(tx, batch, nowIso.slice(0, 10));
  if (state === "rejected") {
    const cancellable: SQL[] = [
      eq(paymentInstructions.batchId, batch.id),
      inArray(paymentInstructions.status, [...INSTRUCTION_MACHINE.operations.cancel.from]),
    ];
    const rows = await tx
      .select()
      .from(paymentInstructions)
      .where(and(...cancellable))
      .orderBy(asc(paymentInstructions.position));
    await applyStatusChanges(
      tx,
      rows.map((instruction) => ({
        instruction,
        status: transition(INSTRUCTION_MACHINE, instruction.status, "cancel"),
      })),
      nowIso,
    );
  }
}

/**
 * Records one decision (docs/architecture.md#states-and-transitions): approve counts one approval (→
 * partially_approved below required_count, → approved at it, batch → approved
 * and due for the bank); reject → rejected, batch → rejected, its pending
 * instructions → cancelled with status events and webhooks.
 * @throws 404 outside the scope; 409 `{ state, allowed }` when the request is
 *   closed; 403 `{ reason: "four_eyes" }` (see `checkFourEyes`) for an approval;
 *   409 `{ reason: "already_decided" }` when this approver decided before.
 */
export async function decide(db: Db, scope: DataScope, id: string, d: Decision): Promise<ApprovalRequest> {
  return db.transaction(async (tx) => {
    const [req] = await tx
      .select()
      .from(approvalRequests)
      .where(
        and(eq(approvalRequests.id, id), ...scopeWhere(scope, approvalRequests.tenantId, approvalRequests.companyId)),
      )
      .for("update");
    if (!req) throw notFound("Approval request");
    // State first: a closed request answers with its state, whoever asks.
    transition(
      APPROVAL_MACHINE,
      req.state,
      d.kind,
      d.kind === "reject" ? "rejected" : approvalStateAfterApprove(req.approvedCount + 1, req.requiredCount),
    );
    if (d.kind === "approve") await checkFourEyes(tx, req, d);
    await recordDecision(tx, req, d);

    const now = new Date();
    const approvedCount = d.kind === "approve" ? req.approvedCount + 1 : req.approvedCount;
    const state = d.kind === "reject" ? "rejected" : approvalStateAfterApprove(approvedCount, req.requiredCount);
    const [updated] = await tx
      .update(approvalRequests)
      .set({ state, approvedCount, updatedAt: now.toISOString() })
      .where(eq(approvalRequests.id, req.id))
      .returning();
    if (state === "approved" || state === "rejected") await closeBatch(tx, req, state, d, now);
    return toApprovalRequest(updated ?? req);
  });
}
