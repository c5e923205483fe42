import type { Metadata } from "next";
import { Landmark } from "lucide-react";
import { InvitationForm } from "@/components/auth/invitation-form";

export const metadata: Metadata = { title: "Set your password" };

/**
 * Where an invitation or password-reset link lands (docs/users-and-notifications.md#invitations): the token rides in
 * the URL's fragment, read by the form in the browser; the person types the e-mail the link was sent to and a new
 * password, once.
 */
export default function InvitePage() {
  return (
    <main className="flex min-h-full items-center justify-center px-4 py-16">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center gap-2">
          <Landmark className="size-6 text-sky-700" aria-hidden />
          <h1 className="text-lg font-semibold tracking-tight">Treasury Dashboard</h1>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h2 className="mb-4 text-sm font-semibold text-slate-900">Set your password</h2>
          <InvitationForm />
        </div>
      </div>
    </main>
  );
}
