import { AuditQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { listAuditEvents } from "@/lib/bff/queries/audit";

/** GET /api/audit — the dashboard's audit log (approvers, admins). */
export const GET = withUser({ permission: "audit.read", company: "none", query: AuditQuery }, (ctx) =>
  listAuditEvents(ctx, ctx.query),
);
