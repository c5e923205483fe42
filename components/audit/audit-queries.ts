/** URL state and query options of the audit log (server and client alike). */
import { queryOptions } from "@tanstack/react-query";
import { createLoader, parseAsString, parseAsStringLiteral } from "nuqs/server";
import { callBff } from "@/components/data/bff-fetch";
import { endpointKey } from "@/lib/bff/endpoint";
import { auditEndpoints } from "@/lib/bff/areas/audit/endpoints";

/**
 * Audit URL state: `action` and `events` (business events by default, sign-ins and sessions one click away, or all)
 * are sent to the BFF; user, object and company filter the loaded rows.
 */
export const auditFilterParsers = {
  action: parseAsString,
  events: parseAsStringLiteral(["business", "sessions", "all"] as const).withDefault("business"),
  user: parseAsString,
  object: parseAsString,
  company: parseAsString,
};
export const loadAuditFilters = createLoader(auditFilterParsers);

/** Newest 500 events of one action (or all) and kind (business events, sessions, all). */
export const auditLogQueries = {
  list: (action: string | null, kind: "business" | "sessions" | "all" = "business") =>
    queryOptions({
      queryKey: endpointKey(auditEndpoints.list, { query: { action: action ?? "", kind } }),
      queryFn: ({ signal }) => callBff(auditEndpoints.list, { query: { action, kind, limit: 500 }, signal }),
    }),
};
