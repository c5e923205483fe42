"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callBff, endpointQuery } from "@/components/data/bff-fetch";
import { notificationsEndpoints } from "@/lib/bff/areas/notifications/endpoints";
import { errorText } from "@/components/data/error-text";
import { toast } from "@/components/ui/toast";
import { NOTIFICATION_KIND_LIST, NOTIFICATION_KINDS, type NotificationKind } from "@/lib/notify/kinds";

const settingsQuery = endpointQuery(notificationsEndpoints.settings);

/**
 * The signed-in user's e-mail switch per kind of notification (GET / PUT /api/notifications/settings,
 * docs/users-and-notifications.md#e-mail). In-app notifications are always kept; when SMTP is off it says so.
 */
export function EmailSettings() {
  const qc = useQueryClient();
  const q = useQuery(settingsQuery);
  const m = useMutation({
    mutationFn: (v: { kind: NotificationKind; email: boolean }) =>
      callBff(notificationsEndpoints.setSetting, {
        body: v,
        idempotencyKey: crypto.randomUUID(),
      }),
    onSuccess: (s) => qc.setQueryData(settingsQuery.queryKey, s),
    onError: (err) => toast.error(errorText(err, "Saving the e-mail setting")),
  });
  return (
    <section aria-labelledby="email-settings-title" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="email-settings-title" className="text-sm font-semibold text-slate-900">
        E-mail me when
      </h2>
      {q.isPending ? (
        <p className="text-[13px] text-slate-600">Loading…</p>
      ) : q.error ? (
        <p role="alert" className="text-[13px]">
          {errorText(q.error, "The e-mail settings")}
        </p>
      ) : (
        <>
          {!q.data.smtp && (
            <p className="mb-2 text-[13px] text-slate-600">E-mail is not set up on this dashboard; nothing is sent.</p>
          )}
          <ul className="space-y-1">
            {NOTIFICATION_KIND_LIST.map((kind) => (
              <li key={kind}>
                <label className="inline-flex min-h-11 items-center gap-2 text-[13px] sm:min-h-0">
                  <input
                    type="checkbox"
                    checked={q.data.email[kind] ?? true}
                    disabled={m.isPending}
                    data-testid={`email-setting-${kind}`}
                    onChange={(e) => m.mutate({ kind, email: e.target.checked })}
                  />
                  {NOTIFICATION_KINDS[kind]}
                </label>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
