/**
 * The dashboard's audit log, read by approvers and admins (the role table
 * grants them audit.read), narrowed to the user's companies when they are limited.
 */
import "server-only";
import type { z } from "zod";
import { listAudit } from "../../db/audit";
import { listUsers } from "../../db/users";
import { SESSION_ACTIONS } from "../../audit-words";
import type { BffContext } from "../context";
import { dashboardDb } from "../../server/db";
import type { AuditQuery } from "../inputs";
import type { AuditEventView } from "../../views/audit";

/**
 * The newest `limit` (default 100, at most 500) audit events the user may see, optionally of one `action`, before a
 * time, and of one `kind` (`business`: without sign-in and session events; `sessions`: only those; default all).
 * Each names its user (`user_name`: the dashboard's name for the e-mail, null when it has none).
 */
export async function listAuditEvents(
  ctx: BffContext,
  q: z.output<typeof AuditQuery> = {},
): Promise<{ items: AuditEventView[] }> {
  const db = await dashboardDb();
  const sessions = [...SESSION_ACTIONS];
  const [rows, users] = await Promise.all([
    listAudit(db, {
      companyIds: ctx.user.companyIds,
      action: q.action,
      ...(q.kind === "business" ? { actions: { notIn: sessions } } : {}),
      ...(q.kind === "sessions" ? { actions: { in: sessions } } : {}),
      before: q.before,
      limit: q.limit ?? 100,
    }),
    listUsers(db).catch(() => []),
  ]);
  const names = new Map(users.filter((u) => u.name && u.name !== u.email).map((u) => [u.email.toLowerCase(), u.name]));
  return {
    items: rows.map((r) => ({
      id: r.id,
      at: r.at,
      user_email: r.userEmail,
      user_name: names.get(r.userEmail.toLowerCase()) ?? null,
      action: r.action,
      object_type: r.objectType,
      object_id: r.objectId,
      company_id: r.companyId,
      idempotency_key: r.idempotencyKey,
      outcome: r.outcome,
      request_id: r.requestId,
      details: r.details,
    })),
  };
}
