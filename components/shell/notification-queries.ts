"use client";

import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { callBff, endpointQuery } from "@/components/data/bff-fetch";
import { endpointKey } from "@/lib/bff/endpoint";
import { notificationsEndpoints } from "@/lib/bff/areas/notifications/endpoints";
import { paymentsEndpoints } from "@/lib/bff/areas/payments/endpoints";

export type { NotificationItem, NotificationPage } from "@/lib/bff/areas/notifications/endpoints";

/**
 * The signed-in user's notifications, paged (docs/users-and-notifications.md#notifications), polled every 30 s: one
 * query shared by the header's bell, the phone menu and the /notifications page. `unread` is 0 until loaded.
 */
export function useNotifications() {
  const qc = useQueryClient();
  const q = useInfiniteQuery({
    queryKey: endpointKey(notificationsEndpoints.list),
    queryFn: ({ pageParam }) => callBff(notificationsEndpoints.list, { query: { cursor: pageParam || undefined } }),
    initialPageParam: "",
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: 30_000,
  });
  const markAll = async () => {
    await callBff(notificationsEndpoints.markRead, {
      body: { ids: "all" },
      idempotencyKey: crypto.randomUUID(),
    }).catch(() => undefined);
    await qc.invalidateQueries({ queryKey: endpointKey(notificationsEndpoints.list) });
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
