/**
 * The audit area's BFF route (docs/architecture.md#the-bff-declared-per-area), declared against ./endpoints.ts.
 */
import "server-only";
import { AuditQuery } from "@/lib/bff/inputs";
import { declareRoute, defineRoutes } from "@/lib/bff/route";
import { listAuditEvents } from "@/lib/bff/queries/audit";
import { auditEndpoints } from "./endpoints";

export const auditRoutes = defineRoutes(auditEndpoints, {
  /** GET /api/audit — the dashboard's audit log (approvers, admins). */
  list: declareRoute(auditEndpoints.list, { permission: "audit.read", company: "none", query: AuditQuery }, (ctx) =>
    listAuditEvents(ctx, ctx.query),
  ),
});
