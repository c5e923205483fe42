import type { Metadata } from "next";
import { loadPage } from "@/lib/bff/page";
import { PageProblem } from "@/components/ui/page-problem";
import { NotificationList } from "@/components/shell/notification-bell";
import { EmailSettings } from "@/components/notifications/email-settings";

export const metadata: Metadata = { title: "Notifications" };

/**
 * The notification centre as a page (docs/users-and-notifications.md#notifications): the paged list, and the
 * user's e-mail switch per kind. Phones reach it from the menu (the header's bell shows from 640 px); every role
 * has one.
 */
export default async function NotificationsPage() {
  const load = await loadPage("overview");
  if (!load.ok) return <PageProblem load={load} />;
  return (
    <div className="max-w-3xl space-y-5">
      <div className="rounded-lg border border-slate-200 bg-white p-3">
        <NotificationList heading="h1" />
      </div>
      <EmailSettings />
    </div>
  );
}
