/**
 * The dashboard's audit log, read by approvers and admins (the role table
 * grants them audit.read), narrowed to the user's companies when they are limited.
 */
import "server-only";
import type { z } from "zod";
import { listAudit } from "../../db/audit";
import type { BffContext } from "../context";
import { dashboardDb } from "../../server/db";
import type { AuditQuery } from "../inputs";
import type { AuditEventView } from "../../views/audit";

export async function listAuditEvents(
  ctx: BffContext,
  q: z.output<typeof AuditQuery> = {},
): Promise<{ items: AuditEventView[] }> {
  const rows = await listAudit(await dashboardDb(), {
    companyIds: ctx.user.companyIds,
    action: q.action,
    before: q.before,
    limit: q.limit ?? 100,
  });
  return {
    items: rows.map((r) => ({
      id: r.id,
      at: r.at,
      user_email: r.userEmail,
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
