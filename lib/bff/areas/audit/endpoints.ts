/**
 * The audit area's BFF endpoint (docs/architecture.md#the-bff-declared-per-area): the dashboard's audit log.
 * Isomorphic: the browser derives its URL and query keys from it.
 */
import type { AuditEventView } from "@/lib/views/audit";
import { endpoint } from "../../endpoint";

export const auditEndpoints = {
  list: endpoint("GET", "/api/audit").returns<{ items: AuditEventView[] }>(),
};
