/**
 * The dashboard's append-only audit log (DESIGN.md BFF rules: every
 * successful write is appended with user, action, object, company,
 * idempotency key, time and outcome). The database refuses UPDATE / DELETE.
 */
import { and, desc, eq, inArray, lt, type SQL } from "drizzle-orm";
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
