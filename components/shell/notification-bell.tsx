"use client";

import { useState } from "react";
import Link from "next/link";
import { Bell } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useLocale } from "@/components/format/use-locale";
import { formatNotificationText } from "@/lib/notify/money-text";
import { useNotifications } from "./notification-queries";

/**
 * The notification list (docs/users-and-notifications.md#notifications): newest first, "Mark all read" while some
 * are unread, "Show more" for the next page (20 a page). `onFollow` runs when a notification's link is followed.
 * Shown by the bell's panel and by the /notifications page (phones).
 */
export function NotificationList({ onFollow, heading = "h2" }: { onFollow?: () => void; heading?: "h1" | "h2" }) {
  const { query: q, unread, items, markAll } = useNotifications();
  const locale = useLocale();
  const Heading = heading;
  return (
    <>
      <div className="mb-1 flex items-center justify-between gap-2 px-1">
        <Heading
          className={heading === "h1" ? "text-lg font-semibold text-slate-900" : "text-xs font-semibold text-slate-900"}
        >
          Notifications
        </Heading>
        {unread > 0 && (
          <Button variant="ghost" onClick={() => void markAll()} data-testid="mark-all-read">
            Mark all read
          </Button>
        )}
      </div>
      {q.isPending ? (
        <p className="px-1 py-2 text-[13px] text-slate-600">Loading…</p>
      ) : items.length === 0 ? (
        <p className="px-1 py-2 text-[13px] text-slate-600">Nothing yet.</p>
      ) : (
        <ul className={`divide-y divide-slate-100 ${heading === "h2" ? "max-h-96 overflow-y-auto" : ""}`}>
          {items.map((n) => (
            <li key={n.id} className="px-1 py-2 text-[13px] break-words" data-testid="notification-item">
              {n.link ? (
                <Link href={n.link} className="font-medium text-slate-900 underline" onClick={onFollow}>
                  {formatNotificationText(n.title, locale)}
                </Link>
              ) : (
                <span className="font-medium text-slate-900">{formatNotificationText(n.title, locale)}</span>
              )}
              {!n.read && <span className="ml-1 text-xs text-red-700">new</span>}
              <p className="text-slate-700">{formatNotificationText(n.body, locale)}</p>
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
    </>
  );
}

/**
 * The notification centre of the header (docs/users-and-notifications.md#notifications): a bell with the unread
 * count (polled every 30 s), opening the paged list. Phones reach the same list from the menu (/notifications).
 */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const { unread } = useNotifications();
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
          <NotificationList onFollow={() => setOpen(false)} />
        </div>
      )}
    </div>
  );
}
