/** URL state and query options of the audit log (server and client alike). */
import { queryOptions } from "@tanstack/react-query";
import { createLoader, parseAsString } from "nuqs/server";
import type { AuditEventView } from "@/lib/views/audit";
import { bffFetch, toQueryString } from "@/components/data/bff-fetch";

/** Audit URL state: `action` is sent to the BFF; user, object and company filter the loaded rows. */
export const auditFilterParsers = {
  action: parseAsString,
  user: parseAsString,
  object: parseAsString,
  company: parseAsString,
};
export const loadAuditFilters = createLoader(auditFilterParsers);

/** Newest 500 events of one action (or all). */
export const auditLogQueries = {
  list: (action: string | null) =>
    queryOptions({
      queryKey: ["audit", "log", action ?? ""] as const,
      queryFn: ({ signal }) =>
        bffFetch<{ items: AuditEventView[] }>(`/api/audit${toQueryString({ action, limit: 500 })}`, { signal }),
    }),
};
