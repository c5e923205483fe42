import type { Metadata } from "next";
import Link from "next/link";
import { can } from "@/lib/auth/roles";
import { loadPage } from "@/lib/bff/page";
import { PageProblem } from "@/components/ui/page-problem";
import { PageHeader } from "@/components/ui/states";
import { PasskeysPanel } from "@/components/profile/passkeys-panel";
import { currentStepUpMode } from "@/lib/bff/step-up";

export const metadata: Metadata = { title: "Profile" };

/** The signed-in user's profile: who they are, and their passkeys (enrol, list, remove). Every role has one. */
export default async function ProfilePage() {
  const load = await loadPage("overview");
  if (!load.ok) return <PageProblem load={load} />;
  const { user } = load.ctx;
  return (
    <div className="max-w-3xl space-y-5">
      <PageHeader title="Profile" description="Your sign-in and the passkeys that confirm your approvals" />
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 rounded-lg border border-slate-200 bg-white p-5 text-[13px]">
        <dt className="text-slate-600">Name</dt>
        <dd data-testid="profile-name">{user.name}</dd>
        <dt className="text-slate-600">E-mail</dt>
        <dd>{user.email}</dd>
        <dt className="text-slate-600">Roles</dt>
        <dd>{user.roles.join(", ")}</dd>
      </dl>
      <PasskeysPanel mode={currentStepUpMode()} />
      {can(user.roles, "users.manage") && (
        <p className="text-[13px] text-slate-600">
          Administrators:{" "}
          <Link href="/users" className="font-medium underline">
            manage users&apos; passkeys
          </Link>{" "}
          (recovery when someone loses their device).
        </p>
      )}
    </div>
  );
}
