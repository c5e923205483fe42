/**
 * Payment views that combine reads for one screen: the batch detail
 * (batch, instructions, status-event timeline, approval progress) and the
 * approval queue (each pending request with its batch, creator and who has
 * approved so far). Every upstream read is an allowlisted spec operation
 * (spec §4 Payments, Approvals) sent with the batch's company; who created
 * and who approved come from the dashboard's audit log (the four-eyes
 * check reads it too), because the API knows only its OAuth client.
 */
import "server-only";
import type { ApprovalRequest } from "../../contract";
import { AUDIT_ACTION } from "../../audit-actions";
import { can } from "../../auth/roles";
import { REFUSED, listAudit, type AuditEvent } from "../../db/audit";
import { listUsers } from "../../db/users";
import { collectAll } from "../../treasury-client";
import { companyCall, type BffContext } from "../context";
import { dashboardDb } from "../../server/db";
import { treasury } from "../../server/treasury";
import { BATCH_CREATE_ACTION } from "./approvals";
import { crossCompanyCall, visibleTo } from "./cross-company";
import { mapLimit } from "./views";
import { batchRisk } from "./risk";
import { paymentRunSupport } from "./payments";
import { counterpartiesForRisk } from "../../counterparties/counterparties";
import { ibanKey } from "../../counterparties/validation";
import type { ApprovalProgress, ApprovalQueueRow, BatchPolicyView, BatchView, Decision } from "../../views/payments";
import { approvalsOfMany, batchPoliciesOf, type BatchPolicy, type PendingApproval } from "../../policies/store";

export type { ApprovalProgress, ApprovalQueueRow, BatchView, Decision };

/** Instructions shown with a queue row when it is expanded (the batch page shows all). */
export const QUEUE_INSTRUCTION_PREVIEW = 25;

/** Who decided, when and why, from an audit event (`details.reason` when one was given; `name` from `names`). */
export function decisionOf(e: AuditEvent, names: ReadonlyMap<string, string> = new Map()): Decision {
  const reason = typeof e.details.reason === "string" ? e.details.reason : undefined;
  const name = names.get(e.userEmail.toLowerCase());
  return {
    email: e.userEmail,
    at: e.at,
    ...(name ? { name } : {}),
    ...(reason ? { reason } : {}),
    ...(e.details.withdrawn === true ? { withdrawn: true } : {}),
  };
}

/** The policy of a batch as shown, from its stored policy and the approvals the dashboard recorded. */
function policyView(policy: BatchPolicy | undefined, recorded: readonly PendingApproval[]): BatchPolicyView | null {
  if (!policy) return null;
  return {
    explanation: policy.explanation,
    required_count: policy.requiredCount,
    approvals: recorded.length,
    held: recorded.filter((r) => !r.forward).length,
  };
}

/**
 * The request's counts as the dashboard sees them: the policy's requirement (never below the API's) and the
 * approvals recorded (held ones included; never below the API's count).
 */
function withPolicyCounts(a: ApprovalRequest, policy: BatchPolicyView | null): ApprovalRequest {
  if (!policy) return a;
  return {
    ...a,
    required_count: Math.max(a.required_count, policy.required_count),
    approved_count: Math.max(a.approved_count, policy.approvals),
  };
}

/** Display names of the dashboard's users by lower-case e-mail (empty when the user table cannot be read). */
async function userNames(): Promise<Map<string, string>> {
  try {
    const users = await listUsers(await dashboardDb());
    return new Map(users.filter((u) => u.name && u.name !== u.email).map((u) => [u.email.toLowerCase(), u.name]));
  } catch {
    return new Map();
  }
}

/** E-mail of the dashboard user who created batch `batchId` (from the audit log); null when created elsewhere. */
export async function batchCreator(batchId: string): Promise<string | null> {
  return (await creatorsOf([batchId])).get(batchId) ?? null;
}

async function creatorsOf(batchIds: readonly string[]): Promise<Map<string, string>> {
  const rows = await listAudit(await dashboardDb(), {
    companyIds: null,
    action: BATCH_CREATE_ACTION,
    objectIds: batchIds,
    limit: 500,
  });
  return new Map(rows.map((r) => [r.objectId ?? "", r.userEmail]));
}

/** Approval decisions recorded for the given approval requests, oldest first. */
async function decisionsFor(approvalIds: readonly string[]): Promise<AuditEvent[]> {
  const db = await dashboardDb();
  const [approved, rejected] = await Promise.all([
    listAudit(db, { companyIds: null, action: AUDIT_ACTION.approvalApprove, objectIds: approvalIds, limit: 500 }),
    listAudit(db, { companyIds: null, action: AUDIT_ACTION.approvalReject, objectIds: approvalIds, limit: 500 }),
  ]);
  return [...approved, ...rejected].filter(decided).sort((a, b) => a.at.localeCompare(b.at));
}

/** A decision that was taken (refused attempts are in the log too, with outcome `refused`). */
function decided(e: AuditEvent): boolean {
  return e.outcome !== REFUSED;
}

/** One approver counts once (the API's rule): a replayed retry may have left a second audit entry. */
function uniqueByEmail(list: Decision[]): Decision[] {
  const seen = new Set<string>();
  return list.filter((d) => !seen.has(d.email) && seen.add(d.email));
}

function progress(
  approval: ApprovalRequest | null,
  decisions: readonly AuditEvent[],
  names: ReadonlyMap<string, string>,
): ApprovalProgress {
  const approvedBy = uniqueByEmail(
    decisions.filter((d) => d.action === "approval.approve").map((d) => decisionOf(d, names)),
  );
  const rejected = decisions.find((d) => d.action === "approval.reject");
  return {
    approval_id: approval?.id ?? decisions[0]?.objectId ?? null,
    state: approval?.state ?? null,
    required_count: approval?.required_count ?? null,
    approved_count: approval?.approved_count ?? approvedBy.length,
    approved_by: approvedBy,
    rejected_by: rejected ? decisionOf(rejected, names) : null,
  };
}

/** The pending approval requests the user may see (every company of theirs). */
async function pendingApprovals(ctx: BffContext): Promise<ApprovalRequest[]> {
  const all = await collectAll(
    treasury().listPendingApprovals(crossCompanyCall(ctx, undefined, "read"), { pageSize: 1000 }),
    { maxPages: 20 },
  );
  return all.filter(visibleTo(ctx));
}

/**
 * Everything the batch page shows. Instructions and status events are read
 * in full (a batch holds at most 10,000 instructions). @throws BffError /
 * TreasuryApiError 404 when the batch is not in the selected company.
 */
export async function getBatchView(ctx: BffContext, id: string): Promise<BatchView> {
  const call = companyCall(ctx);
  const batch = await treasury().getBatch(call, id);
  const [instructions, events, creators, names, support, payees] = await Promise.all([
    collectAll(treasury().listBatchInstructions(call, id, { pageSize: 1000 }), { maxPages: 20 }),
    collectAll(treasury().listStatusEvents(call, { batch_id: id, pageSize: 1000 }), { maxPages: 50 }),
    creatorsOf([id]),
    userNames(),
    paymentRunSupport(),
    call.companyId
      ? dashboardDb()
          .then((db) => counterpartiesForRisk(db, ctx.user, call.companyId ?? ""))
          .catch(() => [])
      : Promise.resolve([]),
  ]);
  let approval: ApprovalProgress | null = null;
  let policy: BatchPolicyView | null = null;
  if (batch.status !== "created") {
    // Anyone who may read the batch may see its approval progress; a failing queue read only hides the live counts.
    const pending = (await pendingApprovals(ctx).catch(() => [])).find((a) => a.object_id === id) ?? null;
    let decisions: AuditEvent[];
    if (pending) {
      decisions = await decisionsFor([pending.id]);
    } else {
      // The request has left the queue: find its decisions by the batch id recorded with them.
      const db = await dashboardDb();
      const recent = [
        ...(await listAudit(db, { companyIds: null, action: AUDIT_ACTION.approvalApprove, limit: 500 })),
        ...(await listAudit(db, { companyIds: null, action: AUDIT_ACTION.approvalReject, limit: 500 })),
      ];
      decisions = recent
        .filter((e) => e.details.batch_id === id && decided(e))
        .sort((a, b) => a.at.localeCompare(b.at));
    }
    approval = progress(pending, decisions, names);
    const db = await dashboardDb();
    const stored = (await batchPoliciesOf(db, [id])).get(id);
    const approvalId = pending?.id ?? approval.approval_id;
    policy = policyView(stored, approvalId ? ((await approvalsOfMany(db, [approvalId])).get(approvalId) ?? []) : []);
    if (policy && approval.required_count !== null) {
      approval.required_count = Math.max(approval.required_count, policy.required_count);
      approval.approved_count = Math.max(approval.approved_count, policy.approvals);
    }
  }
  const createdBy = creators.get(id) ?? null;
  const mayWrite = can(ctx.user.roles, "payments.write") && batch.status === "created";
  const standing = new Map<string, "verified" | "pending">();
  for (const p of payees) {
    const k = ibanKey(p.iban);
    if (p.status === "verified") standing.set(k, "verified");
    else if (p.status === "pending_verification" && !standing.has(k)) standing.set(k, "pending");
  }
  return {
    batch,
    company_name: call.companyId === ctx.company?.id ? ctx.company.name : "",
    created_by: createdBy,
    created_by_name: createdBy ? (names.get(createdBy.toLowerCase()) ?? null) : null,
    instructions,
    events: [...events].sort((a, b) => a.occurred_at.localeCompare(b.occurred_at)),
    approval,
    policy,
    may_submit: mayWrite,
    may_edit: mayWrite && support.edit,
    may_discard: mayWrite && support.discard,
    payee_standing: Object.fromEntries(
      instructions.map((i) => [i.id, standing.get(ibanKey(i.creditor_iban)) ?? ("ad_hoc" as const)]),
    ),
  };
}

/**
 * The approval queue across the user's companies, oldest request first, each
 * with its batch (company, currency, total, count), creator, approvals so
 * far and the first instructions. A batch that cannot be read is shown
 * without its figures rather than hiding the request.
 */
export async function listApprovalQueue(ctx: BffContext): Promise<{ items: ApprovalQueueRow[] }> {
  const approvals = (await pendingApprovals(ctx)).sort((a, b) => a.created_at.localeCompare(b.created_at));
  const companyNames = new Map(ctx.companies.map((c) => [c.id, c.name]));
  const fallbackCompany = ctx.company?.id;
  const loaded = await mapLimit(approvals, 4, async (a) => {
    const call = { requestId: ctx.requestId, companyId: a.company_id ?? fallbackCompany };
    try {
      const [batch, instructions] = await Promise.all([
        treasury().getBatch(call, a.object_id),
        treasury().listBatchInstructions(call, a.object_id, { pageSize: QUEUE_INSTRUCTION_PREVIEW }),
      ]);
      return { batch, instructions: instructions.items };
    } catch {
      return { batch: null, instructions: [] };
    }
  });
  const policyDb = await dashboardDb();
  const [policies, recorded] = await Promise.all([
    batchPoliciesOf(
      policyDb,
      approvals.map((a) => a.object_id),
    ),
    approvalsOfMany(
      policyDb,
      approvals.map((a) => a.id),
    ),
  ]);
  const [creators, decisions, names, risks] = await Promise.all([
    creatorsOf(approvals.map((a) => a.object_id)),
    decisionsFor(approvals.map((a) => a.id)),
    userNames(),
    // Signals per batch (cached briefly); a batch whose signals fail is shown without them, and the row says so.
    mapLimit(approvals, 2, (a) =>
      a.company_id || fallbackCompany
        ? batchRisk(ctx, a.object_id, a.company_id ?? fallbackCompany).catch(() => null)
        : Promise.resolve(null),
    ),
  ]);
  const me = ctx.user.email;
  const items = approvals.map((a, i): ApprovalQueueRow => {
    const { batch, instructions } = loaded[i] ?? { batch: null, instructions: [] };
    const approvedBy = uniqueByEmail(
      decisions.filter((d) => d.objectId === a.id && d.action === "approval.approve").map((d) => decisionOf(d, names)),
    );
    const createdBy = creators.get(a.object_id) ?? null;
    const companyId = a.company_id ?? batch?.company_id ?? null;
    const policy = policyView(policies.get(a.object_id), recorded.get(a.id) ?? []);
    return {
      approval: withPolicyCounts(a, policy),
      policy,
      batch,
      company_id: companyId,
      company_name: companyId ? (companyNames.get(companyId) ?? companyId.slice(0, 8)) : "—",
      created_by: createdBy,
      created_by_name: createdBy ? (names.get(createdBy.toLowerCase()) ?? null) : null,
      created_by_me: createdBy === me,
      approved_by: approvedBy,
      approved_by_me: approvedBy.some((d) => d.email === me),
      instructions,
      risk: risks[i] ?? null,
    };
  });
  return { items };
}
