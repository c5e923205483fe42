/**
 * Payment views that combine reads for one screen: the batch detail
 * (batch, instructions, status-event timeline, approval progress) and the
 * approval queue (each pending request with its batch, creator and who has
 * approved so far). Every upstream read is an allowlisted spec operation
 * (docs/treasury-api.md#payments, Approvals) sent with the batch's company; who created
 * and who approved come from the dashboard's audit log (the four-eyes
 * check reads it too), because the API knows only its OAuth client.
 */
import "server-only";
import type { ApprovalRequest, PaymentBatch } from "@treasury/contract";
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
import { listBatches, paymentRunSupport } from "./payments";
import type { z } from "zod";
import type { BatchesQuery } from "../inputs";
import { BffError } from "../errors";
import type { BffPage } from "../../views/bff-page";
import { counterpartiesForRisk } from "../../counterparties/counterparties";
import { ibanKey } from "../../counterparties/validation";
import type {
  ApprovalProgress,
  ApprovalQueueRow,
  BatchListRow,
  BatchPolicyView,
  BatchView,
  Decision,
} from "../../views/payments";
import {
  approvalsOfMany,
  batchPoliciesOf,
  ineligibility,
  type BatchPolicy,
  type PendingApproval,
} from "../../policies/store";
import { TtlCache } from "../ttl-cache";

export type { ApprovalProgress, ApprovalQueueRow, BatchListRow, BatchView, Decision };

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

/**
 * Display names of the dashboard's users by lower-case e-mail (empty when the user table cannot be read); the map
 * also answers `id:<user id>` with the user's e-mail (a batch's API `initiator` is the creating user's id).
 */
async function userNames(): Promise<Map<string, string>> {
  try {
    const users = await listUsers(await dashboardDb());
    return new Map([
      ...users.filter((u) => u.name && u.name !== u.email).map((u) => [u.email.toLowerCase(), u.name] as const),
      ...users.map((u) => [`id:${u.id.toLowerCase()}`, u.email] as const),
    ]);
  } catch {
    return new Map();
  }
}

/** Who created a batch, as the batch views carry it (docs/guides/payments-and-approvals.md, "Approving"). */
export interface BatchCreator {
  /** The creator's e-mail, or the API client's id; null when unknown. */
  created_by: string | null;
  /** The display name when known ("API client <id>" for an integration). */
  created_by_name: string | null;
  /** `person`: a person (a dashboard user, or an e-mail the API was given); `api_client`: an integration; null: unknown. */
  created_by_kind: "person" | "api_client" | null;
}

/**
 * Who created a batch, named: the dashboard user of its audit entry (`auditEmail`), else the batch's API
 * `initiator` — a dashboard user's id or e-mail (their name), or an API client's id ("API client <id>": created by
 * an integration, not a person of the dashboard). `created_by` is the e-mail or the initiator; all null only when
 * neither is known.
 */
export function creatorOfBatch(
  auditEmail: string | null,
  initiator: string | null | undefined,
  names: ReadonlyMap<string, string>,
): BatchCreator {
  const email = auditEmail ?? (initiator ? (names.get(`id:${initiator.toLowerCase()}`) ?? null) : null);
  if (email)
    return { created_by: email, created_by_name: names.get(email.toLowerCase()) ?? null, created_by_kind: "person" };
  if (!initiator) return { created_by: null, created_by_name: null, created_by_kind: null };
  if (initiator.includes("@"))
    return {
      created_by: initiator,
      created_by_name: names.get(initiator.toLowerCase()) ?? null,
      created_by_kind: "person",
    };
  return { created_by: initiator, created_by_name: `API client ${initiator}`, created_by_kind: "api_client" };
}

/** E-mail of the dashboard user who created batch `batchId` (from the audit log); null when created elsewhere. */
export async function batchCreator(batchId: string): Promise<string | null> {
  return (await creatorsOf([batchId])).get(batchId) ?? null;
}

/**
 * The reference batch `batchId` had at its newest create or edit in the dashboard (from the audit log, where those
 * entries carry it): how the log names the batch in its approval decisions. Null when the batch has none or was
 * created elsewhere.
 */
export async function batchReferenceInAudit(batchId: string): Promise<string | null> {
  const db = await dashboardDb();
  const [created, edited] = await Promise.all(
    [BATCH_CREATE_ACTION, AUDIT_ACTION.batchEdit].map((action) =>
      listAudit(db, { companyIds: null, action, objectIds: [batchId], limit: 1 }),
    ),
  );
  const newest = [...(created ?? []), ...(edited ?? [])].sort((a, b) => b.at.localeCompare(a.at))[0];
  const reference = newest?.details.reference;
  return typeof reference === "string" ? reference : null;
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

const NO_APPROVAL: BatchApproval = { approval: null, policy: null };

/** The waiting counts per user, 15 s; every submission and decision drops them all (`forgetWaitingCounts`). */
const waitingCounts = new TtlCache<number>({ ttlMs: 15_000, maxEntries: 5_000 });

/**
 * Drops every cached waiting count (this process): a submission or a decision changes whose queue holds what.
 * Another instance's counts catch up within their 15 s.
 */
export function forgetWaitingCounts(): void {
  waitingCounts.dropPrefix("");
}

/**
 * How many batches wait for the signed-in user's approval (docs/users-and-notifications.md#notifications, the
 * navigation's count): pending approval requests of the user's companies that the user is eligible for under the
 * batch's stored policy (a batch without one: any approver), did not create (four-eyes) and has not approved or
 * rejected yet. 0 for a user who may not decide. Cost: one upstream read of the pending queue and four dashboard-DB
 * reads, cached per user for 15 s and dropped on every submission and decision.
 * @returns a count >= 0; rejects when the upstream read fails (the caller shows no count).
 */
export function waitingForMeCount(ctx: BffContext): Promise<number> {
  if (!can(ctx.user.roles, "approvals.decide")) return Promise.resolve(0);
  return waitingCounts.get(`${ctx.user.id}:`, async () => {
    const approvals = await pendingApprovals(ctx);
    if (approvals.length === 0) return 0;
    const ids = approvals.map((a) => a.id);
    const batchIds = approvals.map((a) => a.object_id);
    const db = await dashboardDb();
    const [policies, recorded, creators, decisions] = await Promise.all([
      batchPoliciesOf(db, batchIds),
      approvalsOfMany(db, ids),
      creatorsOf(batchIds),
      decisionsFor(ids),
    ]);
    const me = ctx.user.email.toLowerCase();
    const decidedByMe = new Set(decisions.filter((d) => d.userEmail.toLowerCase() === me).map((d) => d.objectId));
    return approvals.filter((a) => {
      const policy = policies.get(a.object_id);
      if (policy && ineligibility(policy, ctx.user) !== null) return false;
      if (creators.get(a.object_id)?.toLowerCase() === me) return false;
      if ((recorded.get(a.id) ?? []).some((r) => r.userId === ctx.user.id)) return false;
      return !decidedByMe.has(a.id);
    }).length;
  });
}

/** A batch's approval progress and stored policy; both null before submission. */
export interface BatchApproval {
  approval: ApprovalProgress | null;
  policy: BatchPolicyView | null;
}

/**
 * The approval progress and policy of each submitted batch, by batch id, as the batch page and the payments list
 * show them: a batch in the pending queue (one cross-company read; a failing read only hides the live counts) gets
 * the API's counts and the decisions recorded on its request; one that has left the queue gets the decisions recorded
 * with its batch id among the latest 500 approvals and 500 rejections. The stored policy raises the required count
 * and the approvals recorded by the dashboard (held ones included) raise the approved count. Batches still in
 * `created` are left out. Reads: at most one upstream call and a few dashboard-DB queries for any number of batches.
 */
export async function batchApprovals(
  ctx: BffContext,
  batches: readonly PaymentBatch[],
  names: ReadonlyMap<string, string>,
): Promise<Map<string, BatchApproval>> {
  const submitted = batches.filter((b) => b.status !== "created");
  if (submitted.length === 0) return new Map();
  const ids = new Set(submitted.map((b) => b.id));
  // Anyone who may read a batch may see its approval progress.
  const pending = new Map(
    (await pendingApprovals(ctx).catch(() => [])).filter((a) => ids.has(a.object_id)).map((a) => [a.object_id, a]),
  );
  const db = await dashboardDb();
  const leftQueue = submitted.some((b) => !pending.has(b.id));
  const [queued, recent, policies] = await Promise.all([
    decisionsFor([...pending.values()].map((a) => a.id)),
    // A request that has left the queue: its decisions are found by the batch id recorded with them.
    leftQueue
      ? Promise.all([
          listAudit(db, { companyIds: null, action: AUDIT_ACTION.approvalApprove, limit: 500 }),
          listAudit(db, { companyIds: null, action: AUDIT_ACTION.approvalReject, limit: 500 }),
        ]).then(([a, r]) => [...a, ...r].filter(decided).sort((x, y) => x.at.localeCompare(y.at)))
      : Promise.resolve([]),
    batchPoliciesOf(db, [...ids]),
  ]);
  const progressById = new Map(
    submitted.map((b) => {
      const request = pending.get(b.id) ?? null;
      const decisions = request
        ? queued.filter((e) => e.objectId === request.id)
        : recent.filter((e) => e.details.batch_id === b.id);
      return [b.id, progress(request, decisions, names)] as const;
    }),
  );
  const approvalIds = [...progressById.values()].flatMap((p) => (p.approval_id ? [p.approval_id] : []));
  const recorded = await approvalsOfMany(db, approvalIds);
  const out = new Map<string, BatchApproval>();
  for (const [id, approval] of progressById) {
    const policy = policyView(policies.get(id), approval.approval_id ? (recorded.get(approval.approval_id) ?? []) : []);
    if (policy && approval.required_count !== null) {
      approval.required_count = Math.max(approval.required_count, policy.required_count);
      approval.approved_count = Math.max(approval.approved_count, policy.approvals);
    }
    out.set(id, { approval, policy });
  }
  return out;
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
  const { approval, policy } = (await batchApprovals(ctx, [batch], names)).get(id) ?? NO_APPROVAL;
  const creator = creatorOfBatch(creators.get(id) ?? null, batch.initiator, names);
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
    ...creator,
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
    const creator = creatorOfBatch(creators.get(a.object_id) ?? null, batch?.initiator, names);
    const companyId = a.company_id ?? batch?.company_id ?? null;
    const policy = policyView(policies.get(a.object_id), recorded.get(a.id) ?? []);
    return {
      approval: withPolicyCounts(a, policy),
      policy,
      batch,
      company_id: companyId,
      company_name: companyId ? (companyNames.get(companyId) ?? companyId.slice(0, 8)) : "—",
      ...creator,
      created_by_me: creator.created_by === me,
      approved_by: approvedBy,
      approved_by_me: approvedBy.some((d) => d.email === me),
      instructions,
      risk: risks[i] ?? null,
    };
  });
  return { items };
}

/** Most rows read per company for one page of the all-companies payments list (the API's page size limit). */
const ALL_COMPANIES_READ_MAX = 1000;

/** Upstream reads in flight at most while the all-companies list reads each company's batches. */
const ALL_COMPANIES_CONCURRENCY = 4;

/**
 * One page of the payments list: the selected company's batches (`GET /payments/batches`, docs/treasury-api.md#payments, newest first), or
 * with `companies=all` those of every company the user may see (a company-limited user: only theirs), each
 * company read with its own `X-Company-ID` and merged newest first. For page `p` of size `n`, each company's first
 * `p × n` batches are read, which hold the page whatever the mix. Each row carries its company, its creator (the
 * audit log) and its approval progress and policy as the batch page computes them (`batchApprovals`).
 * @throws BffError 400 naming `page` when the all-companies page lies beyond 1,000 batches per company.
 */
export async function listBatchRows(
  ctx: BffContext,
  q: z.output<typeof BatchesQuery> = {},
): Promise<BffPage<BatchListRow>> {
  const { companies, ...filters } = q;
  const page = await (companies === "all" ? allCompaniesPage(ctx, filters) : listBatches(ctx, filters));
  const batches = page.items;
  const [creators, names] = await Promise.all([creatorsOf(batches.map((b) => b.id)), userNames()]);
  const approvals = await batchApprovals(ctx, batches, names);
  const companyNames = new Map(ctx.companies.map((c) => [c.id, c.name]));
  return {
    ...page,
    items: batches.map((batch): BatchListRow => {
      const creator = creatorOfBatch(creators.get(batch.id) ?? null, batch.initiator, names);
      return {
        batch,
        company_id: batch.company_id,
        company_name: companyNames.get(batch.company_id) ?? batch.company_id.slice(0, 8),
        ...creator,
        ...(approvals.get(batch.id) ?? NO_APPROVAL),
      };
    }),
  };
}

async function allCompaniesPage(
  ctx: BffContext,
  q: Omit<z.output<typeof BatchesQuery>, "companies">,
): Promise<BffPage<PaymentBatch>> {
  const size = q.page_size ?? 50;
  const pageNo = q.page ?? 1;
  const read = pageNo * size;
  if (read > ALL_COMPANIES_READ_MAX)
    throw new BffError(
      "validation_error",
      `page must be at most ${Math.floor(ALL_COMPANIES_READ_MAX / size)} when all companies are shown`,
      {
        errors: { page: [`must be at most ${Math.floor(ALL_COMPANIES_READ_MAX / size)} when all companies are shown`] },
      },
    );
  const { page: _page, page_size: _size, ...filters } = q;
  const pages = await mapLimit(ctx.companies, ALL_COMPANIES_CONCURRENCY, (c) =>
    treasury().listBatches(
      { requestId: ctx.requestId, companyId: c.id, outcome: ctx.upstream },
      { ...filters, page: 1, pageSize: read },
    ),
  );
  const merged = pages
    .flatMap((p) => p.items)
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
  const counts = pages.map((p) => p.count);
  const count = counts.every((c): c is number => c !== null) ? counts.reduce((a, b) => a + b, 0) : null;
  const hasMore = pages.some((p) => p.next !== null);
  return {
    items: merged.slice((pageNo - 1) * size, pageNo * size),
    count,
    page: pageNo,
    page_size: size,
    total_pages: count === null ? null : Math.max(1, Math.ceil(count / size)),
    has_next: count === null ? hasMore || merged.length > pageNo * size : pageNo * size < count,
    has_previous: pageNo > 1,
  };
}
