/**
 * The payments area's BFF routes (docs/architecture.md#the-bff-declared-per-area), declared against ./endpoints.ts:
 * payment batches and their instructions, the batch page's reads, the pain.001 file, and the approval queue with its
 * decisions (docs/architecture.md#four-eyes).
 */
import "server-only";
import { z } from "zod";
import { Iban, PaymentBatchCreate, PaymentBatchUpdate, Uuid } from "@treasury/contract";
import { AUDIT_ACTION } from "@/lib/audit-actions";
import { approvalDecisionRoute } from "@/lib/bff/decision-routes";
import {
  ApprovalsQuery,
  BatchesQuery,
  BatchInstructionsQuery,
  CompanyOverride,
  StatusEventsQuery,
} from "@/lib/bff/inputs";
import { BATCH_CREATE_ACTION, listPendingApprovals } from "@/lib/bff/queries/approvals";
import { decideAndStorePolicy } from "@/lib/bff/queries/batch-policy";
import { exportPain001, getDebtorAccountView, Pain001Query } from "@/lib/bff/queries/pain001";
import {
  forgetWaitingCounts,
  getBatchView,
  listApprovalQueue,
  listBatchRows,
  waitingForMeCount,
} from "@/lib/bff/queries/payment-views";
import { createBatch, discardBatch, updateBatch } from "@/lib/bff/queries/payments";
import { batchRisk, payeeHistory } from "@/lib/bff/queries/risk";
import { BATCH_MAX_BODY_BYTES, declareRoute, defineRoutes, IdParams } from "@/lib/bff/route";
import { batchWaiting } from "@/lib/notify/events";
import { logger } from "@/lib/server/log";
import { treasury } from "@/lib/server/treasury";
import { apiPage, apiPageById, readById, readByQuery, type ReadAccess } from "../read-routes";
import { paymentsEndpoints as e } from "./endpoints";

const PayeeHistoryQuery = z.object({ iban: Iban, company_id: Uuid.optional() });

/** The batch and instruction reads: the selected company's (`payments.read`). */
const read: ReadAccess = { permission: "payments.read" };

export const paymentsRoutes = defineRoutes(e, {
  /** GET /payments/instructions/{id} */
  instruction: readById(e.instruction, read, (ctx, id) => treasury().getInstruction(ctx.read, id)),

  /** GET /payments/status-events */
  statusEvents: apiPage(e.statusEvents, { ...read, query: StatusEventsQuery }, (r, f) =>
    treasury().listStatusEvents(r, f),
  ),

  /** GET /payments/batches — one page of list rows (creator, approvals; `companies=all` spans the user's companies). */
  batches: readByQuery(e.batches, { ...read, query: BatchesQuery }, listBatchRows),

  /** POST /payments/batches — 201 with the batch (treasurer). */
  create: declareRoute(
    e.create,
    {
      permission: "payments.write",
      company: "body",
      body: PaymentBatchCreate,
      maxBody: BATCH_MAX_BODY_BYTES,
      status: 201,
      audit: { action: BATCH_CREATE_ACTION, objectType: "payment_batch" },
    },
    (ctx) => createBatch(ctx, ctx.body),
  ),

  /** GET /payments/batches/{id} */
  batch: readById(e.batch, read, (ctx, id) => treasury().getBatch(ctx.read, id)),

  /**
   * PATCH — rename, move, repoint or replace the instructions of a batch not yet submitted (treasurer);
   * 409 once submitted or when the API does not offer editing.
   */
  update: declareRoute(
    e.update,
    {
      permission: "payments.write",
      params: IdParams,
      body: PaymentBatchUpdate,
      maxBody: BATCH_MAX_BODY_BYTES,
      audit: { action: AUDIT_ACTION.batchEdit, objectType: "payment_batch" },
    },
    async (ctx) => {
      const batch = await updateBatch(ctx, ctx.params.id, ctx.body);
      ctx.audit.details = {
        changed: Object.keys(ctx.body).sort(),
        ...(ctx.body.reference !== undefined ? { reference: ctx.body.reference } : {}),
        ...(ctx.body.instructions ? { instruction_count: ctx.body.instructions.length } : {}),
      };
      return batch;
    },
  ),

  /** DELETE — discard a batch not yet submitted (treasurer); 204; 409 once submitted. */
  discard: declareRoute(
    e.discard,
    {
      permission: "payments.write",
      params: IdParams,
      audit: { action: AUDIT_ACTION.batchDiscard, objectType: "payment_batch" },
    },
    async (ctx) => {
      await discardBatch(ctx, ctx.params.id);
      return undefined;
    },
  ),

  /**
   * GET — the batch's risk signals with their evidence, its debtor account and available balance.
   * `company_id` may name the batch's company (an approver's queue spans companies); default: the selected one.
   */
  risk: declareRoute(
    e.risk,
    { permission: "payments.read", company: "none", params: IdParams, query: CompanyOverride },
    (ctx) => batchRisk(ctx, ctx.params.id, ctx.query.company_id),
  ),

  /** GET /payments/batches/{id}/instructions (extension) */
  instructions: apiPageById(e.instructions, { ...read, query: BatchInstructionsQuery }, (r, id, f) =>
    treasury().listBatchInstructions(r, id, f),
  ),

  /**
   * POST /payments/batches/{id}/submit — 202, the batch now pending approval (treasurer). The batch's approval
   * policy is decided and stored with it now, so later rule changes do not apply to it; the answer carries its
   * explanation as `policy`. The approvers eligible under it are notified (lib/notify/events.ts). Should storing fail, the policy is decided at the first read instead (logged).
   */
  submit: declareRoute(
    e.submit,
    {
      permission: "payments.write",
      params: IdParams,
      status: 202,
      audit: { action: "payment_batch.submit", objectType: "payment_batch" },
    },
    async (ctx) => {
      // The spec describes no body for the 202, so the API may send none.
      const submitted = await treasury().submitBatch(ctx.write, ctx.params.id);
      // The approvers' waiting counts in the navigation include it from their next read.
      forgetWaitingCounts();
      const batch =
        submitted ??
        (await treasury()
          .getBatch(ctx.read, ctx.params.id)
          .catch(() => null));
      let policy: { explanation: string; required_count: number } | undefined;
      if (batch) {
        try {
          const p = await decideAndStorePolicy(ctx, batch);
          policy = { explanation: p.explanation, required_count: p.requiredCount };
          ctx.audit.details = { policy: p.explanation, policy_required_count: p.requiredCount };
          // The eligible approvers are told (in-app, and one e-mail each when SMTP is on; docs/users-and-notifications.md).
          await batchWaiting(batch, p, ctx.user.id, ctx.request.nextUrl.origin);
        } catch (err) {
          logger.error({ err, requestId: ctx.requestId, batchId: ctx.params.id }, "approval policy not stored");
        }
      }
      const body = batch ?? { id: ctx.params.id, status: "pending_approval" };
      return policy ? { ...body, policy } : body;
    },
  ),

  /**
   * GET ?iban= — the company's last 12 payments to that IBAN, this batch's own left out (the payee's history, shown in
   * place
   * next to a batch's instruction). `company_id` as for the risk read.
   */
  payeeHistory: declareRoute(
    e.payeeHistory,
    { permission: "payments.read", company: "none", params: IdParams, query: PayeeHistoryQuery },
    (ctx) => payeeHistory(ctx, ctx.query.iban, ctx.query.company_id, ctx.params.id),
  ),

  /**
   * GET: the batch as an ISO 20022 pain.001 (`?version=pain.001.001.09` default, or pain.001.001.03), an XML attachment.
   * Audited: who downloaded which batch's file, its message id, control sum and debtor account.
   */
  pain001: declareRoute(
    e.pain001,
    {
      permission: "payments.read",
      params: IdParams,
      query: Pain001Query,
      audit: { action: "payment_batch.pain001_export", objectType: "payment_batch" },
    },
    (ctx) => exportPain001(ctx, ctx.params.id, ctx.query),
  ),

  /** GET — the batch page in one read: batch, instructions, status events, approval progress. */
  view: readById(e.view, read, getBatchView),

  /**
   * GET: `{ account, reason }`: the account the batch is paid from (IBAN masked),
   * or null and why no payment file can be written.
   */
  debtorAccount: readById(e.debtorAccount, read, getDebtorAccountView),

  /** POST /approvals/{id}/approve — the approver is the signed-in user; four-eyes enforced. */
  approve: approvalDecisionRoute(e.approve, "approve"),

  /** POST /approvals/{id}/reject — the approver is the signed-in user; four-eyes enforced. */
  reject: approvalDecisionRoute(e.reject, "reject"),

  /** GET — the approval queue with each request's batch, creator and approvals so far, in one read. */
  approvalQueue: declareRoute(e.approvalQueue, { permission: "approvals.read", company: "none" }, (ctx) =>
    listApprovalQueue(ctx),
  ),

  /**
   * GET /api/treasury/approvals/waiting — `{ waiting }`: how many batches wait for the signed-in user's approval (the
   * navigation's count, docs/users-and-notifications.md#notifications); 0 for a user who may not decide. Cached per
   * user for 15 s, dropped on every submission and decision.
   */
  waiting: declareRoute(e.waiting, { permission: "approvals.read", company: "none" }, async (ctx) => ({
    waiting: await waitingForMeCount(ctx),
  })),

  /** GET /approvals/pending — the queue across the user's companies (approvers). */
  pendingApprovals: readByQuery(
    e.pendingApprovals,
    { permission: "approvals.read", company: "none", query: ApprovalsQuery },
    listPendingApprovals,
  ),
});
