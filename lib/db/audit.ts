/**
 * The dashboard's append-only audit log (docs/architecture.md#audit-log: every
 * successful write is appended with user, action, object, company,
 * idempotency key, time and outcome). The database refuses UPDATE / DELETE.
 */
import { and, desc, eq, inArray, lt, notInArray, type SQL } from "drizzle-orm";
import type { DashboardDb } from "./client";
import { auditEvents } from "./schema";

export interface AuditInput {
  userId: string | null;
  userEmail: string;
  /** e.g. `payments.batch.create`. */
  action: string;
  /** e.g. `payment_batch`. */
  objectType: string;
  objectId?: string | null;
  companyId?: string | null;
  idempotencyKey?: string | null;
  /** e.g. `success` or the upstream status. */
  outcome: string;
  requestId?: string | null;
  details?: Record<string, unknown>;
}

export interface AuditEvent {
  id: string;
  at: string;
  userId: string | null;
  userEmail: string;
  action: string;
  objectType: string;
  objectId: string | null;
  companyId: string | null;
  idempotencyKey: string | null;
  outcome: string;
  requestId: string | null;
  details: Record<string, unknown>;
}

/** Appends one event and returns it. */
export async function appendAudit(db: DashboardDb, e: AuditInput): Promise<AuditEvent> {
  const [row] = await db
    .insert(auditEvents)
    .values({
      userId: e.userId,
      userEmail: e.userEmail,
      action: e.action,
      objectType: e.objectType,
      objectId: e.objectId ?? null,
      companyId: e.companyId ?? null,
      idempotencyKey: e.idempotencyKey ?? null,
      outcome: e.outcome,
      requestId: e.requestId ?? null,
      details: e.details ?? {},
    })
    .returning();
  if (!row) throw new Error("audit insert returned no row");
  return row;
}

export interface AuditQuery {
  /** Only events of these companies. Null = all events. */
  companyIds: string[] | null;
  action?: string;
  /** Only events whose action is (`in`) or is not (`notIn`) one of these. */
  actions?: { in?: readonly string[]; notIn?: readonly string[] };
  /** Only events on these objects (e.g. the approval requests of one batch). */
  objectIds?: readonly string[];
  /** Keyset cursor: events strictly older than this timestamp. */
  before?: string;
  /** Rows per page, 1..500 (default 100). */
  limit?: number;
}

/** Newest first, bounded. */
export async function listAudit(db: DashboardDb, q: AuditQuery): Promise<AuditEvent[]> {
  const where: SQL[] = [];
  if (q.companyIds) {
    // A user limited to some companies sees only their events; events without a
    // company (webhooks, client-wide objects) are for unrestricted users.
    if (q.companyIds.length === 0) return [];
    where.push(inArray(auditEvents.companyId, q.companyIds));
  }
  if (q.action) where.push(eq(auditEvents.action, q.action));
  if (q.actions?.in) {
    if (q.actions.in.length === 0) return [];
    where.push(inArray(auditEvents.action, [...q.actions.in]));
  }
  if (q.actions?.notIn?.length) where.push(notInArray(auditEvents.action, [...q.actions.notIn]));
  if (q.objectIds) {
    if (q.objectIds.length === 0) return [];
    where.push(inArray(auditEvents.objectId, [...q.objectIds]));
  }
  if (q.before) where.push(lt(auditEvents.at, q.before));
  const limit = Math.min(500, Math.max(1, q.limit ?? 100));
  return db
    .select()
    .from(auditEvents)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditEvents.at))
    .limit(limit);
}

/** True when `userId` has a successful `action` on `objectId` in the log (e.g. who created a batch, for four-eyes). */
export async function hasAuditEvent(
  db: DashboardDb,
  q: { action: string; objectId: string; userId: string },
): Promise<boolean> {
  const rows = await db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.action, q.action),
        eq(auditEvents.objectId, q.objectId),
        eq(auditEvents.userId, q.userId),
        eq(auditEvents.outcome, "success"),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Outcome of a refused action in the audit log; the reason is in `details.reason`. */
export const REFUSED = "refused";

/**
 * A refused action: an {@link AuditInput} without `outcome` (it is always {@link REFUSED}). `userId` is null when
 * nobody is known (a sign-in with an unknown or wrong account name); `userEmail` is then the account name that was
 * typed at sign-in (lower-cased); `action` is the action that was refused, e.g. `approval.approve` or
 * `session.sign_in`; `details` is more context, kept beside `reason` and `message`.
 */
export interface RefusalInput extends Omit<AuditInput, "outcome"> {
  /**
   * Machine-readable reason, e.g. `four_eyes`, `not_eligible`, `policy`, `already_approved`, `step_up_required`,
   * `invalid_credentials`, `locked`.
   */
  reason: string;
  /** The message shown to the user, when there is one. */
  message?: string;
}

/**
 * Appends a refusal: outcome `refused`, `details.reason` (and `details.message`). Refused approvals, failed
 * sign-ins and lockouts are logged with this, so the audit log shows what was tried and why it was refused, not
 * only what succeeded. Never throws on its own account beyond what `appendAudit` throws.
 */
export async function auditRefusal(db: DashboardDb, e: RefusalInput): Promise<AuditEvent> {
  const { reason, message, details, ...event } = e;
  return appendAudit(db, {
    ...event,
    outcome: REFUSED,
    details: { ...details, reason, ...(message ? { message } : {}) },
  });
}
