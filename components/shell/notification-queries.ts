"use client";

import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { bffFetch, endpointQuery } from "@/components/data/bff-fetch";
import { paymentsEndpoints } from "@/lib/bff/areas/payments/endpoints";

/** One notification as GET /api/notifications lists it; `created_at` ISO 8601. */
export interface NotificationItem {
  id: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  created_at: string;
  read: boolean;
}

/** One page of GET /api/notifications (20 a page); `unread` counts every unread one of the user. */
export interface NotificationPage {
  items: NotificationItem[];
  next_cursor: string | null;
  unread: number;
}

/**
 * The signed-in user's notifications, paged (docs/users-and-notifications.md#notifications), polled every 30 s: one
 * query shared by the header's bell, the phone menu and the /notifications page. `unread` is 0 until loaded.
 */
export function useNotifications() {
  const qc = useQueryClient();
  const q = useInfiniteQuery({
    queryKey: ["notifications"],
    queryFn: ({ pageParam }) =>
      bffFetch<NotificationPage>(`/api/notifications${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ""}`),
    initialPageParam: "",
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: 30_000,
  });
  const markAll = async () => {
    await bffFetch("/api/notifications/read", {
      method: "POST",
      body: { ids: "all" },
      idempotencyKey: crypto.randomUUID(),
    }).catch(() => undefined);
    await qc.invalidateQueries({ queryKey: ["notifications"] });
  };
  return {
    query: q,
    unread: q.data?.pages[0]?.unread ?? 0,
    items: q.data?.pages.flatMap((p) => p.items) ?? [],
    markAll,
  };
}

/**
 * How many batches wait for the signed-in user's approval (GET /api/treasury/approvals/waiting), polled every 30 s;
 * under its endpoint's key, which every approve / reject in the dashboard invalidates (approvalQueries.keys()). `enabled` false (a user without
 * the approvals area) skips the request. Undefined until loaded or when the read fails.
 */
export function useWaitingCount(enabled: boolean): number | undefined {
  const q = useQuery({
    ...endpointQuery(paymentsEndpoints.waiting),
    refetchInterval: 30_000,
    enabled,
  });
  return q.data?.waiting;
}
