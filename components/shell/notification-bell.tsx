"use client";

import { useState } from "react";
import Link from "next/link";
import { Bell } from "lucide-react";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { bffFetch } from "@/components/data/bff-fetch";
import { Button } from "@/components/ui/button";

interface NotificationItem {
  id: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  created_at: string;
  read: boolean;
}
interface NotificationPage {
  items: NotificationItem[];
  next_cursor: string | null;
  unread: number;
}

/**
 * The notification centre (docs/users-and-notifications.md#notifications): a bell with the unread count (polled
 * every 30 s), opening a paged list (20 a page, "Show more"); opening marks the shown ones read.
 */
export function NotificationBell() {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const q = useInfiniteQuery({
    queryKey: ["notifications"],
    queryFn: ({ pageParam }) =>
      bffFetch<NotificationPage>(`/api/notifications${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ""}`),
    initialPageParam: "",
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: 30_000,
  });
  const unread = q.data?.pages[0]?.unread ?? 0;
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  const markAll = async () => {
    await bffFetch("/api/notifications/read", {
      method: "POST",
      body: { ids: "all" },
      idempotencyKey: crypto.randomUUID(),
    }).catch(() => undefined);
    await qc.invalidateQueries({ queryKey: ["notifications"] });
  };
  return (
    <div className="relative">
      <button
        type="button"
        className="relative inline-flex size-9 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100"
        aria-label={unread ? `Notifications, ${unread} unread` : "Notifications"}
        aria-expanded={open}
        data-testid="notification-bell"
        onClick={() => setOpen(!open)}
      >
        <Bell className="size-4" aria-hidden />
        {unread > 0 && (
          <span
            className="absolute -top-0.5 -right-0.5 rounded-full bg-red-700 px-1 text-xs font-semibold text-white"
            data-testid="notification-count"
          >
            {unread > 99 ? "99+" : unread}
          </span>
        )}
      </button>
      {open && (
        <div
          role="region"
          aria-label="Notifications"
          className="absolute right-0 z-40 mt-1 w-[min(22rem,calc(100vw-1rem))] rounded-md border border-slate-200 bg-white p-2 shadow-lg"
        >
          <div className="mb-1 flex items-center justify-between px-1">
            <h2 className="text-xs font-semibold text-slate-900">Notifications</h2>
            {unread > 0 && (
              <Button variant="ghost" onClick={() => void markAll()}>
                Mark all read
              </Button>
            )}
          </div>
          {items.length === 0 ? (
            <p className="px-1 py-2 text-[13px] text-slate-600">Nothing yet.</p>
          ) : (
            <ul className="max-h-96 divide-y divide-slate-100 overflow-y-auto">
              {items.map((n) => (
                <li key={n.id} className="px-1 py-2 text-[13px]" data-testid="notification-item">
                  {n.link ? (
                    <Link href={n.link} className="font-medium text-slate-900 underline" onClick={() => setOpen(false)}>
                      {n.title}
                    </Link>
                  ) : (
                    <span className="font-medium text-slate-900">{n.title}</span>
                  )}
                  {!n.read && <span className="ml-1 text-xs text-red-700">new</span>}
                  <p className="text-slate-700">{n.body}</p>
                  <p className="text-xs text-slate-600">{new Date(n.created_at).toLocaleString()}</p>
                </li>
              ))}
            </ul>
          )}
          {q.hasNextPage && (
            <Button variant="ghost" pending={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
              Show more
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
