import type { Metadata } from "next";
import { AuthCard } from "@/components/auth/auth-card";
import { InvitationForm } from "@/components/auth/invitation-form";

export const metadata: Metadata = { title: "Set your password" };

/**
 * Where an invitation or password-reset link lands (docs/users-and-notifications.md#invitations): the token rides in
 * the URL's fragment, read by the form in the browser; the person types the e-mail the link was sent to and a new
 * password, once.
 */
export default function InvitePage() {
  return (
    <AuthCard title="Set your password">
      <InvitationForm />
    </AuthCard>
  );
}
