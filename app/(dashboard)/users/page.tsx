import type { Metadata } from "next";
import { can } from "@/lib/auth/roles";
import { loadPage } from "@/lib/bff/page";
import { PageProblem } from "@/components/ui/page-problem";
import { PageHeader } from "@/components/ui/states";
import { UsersAdmin } from "@/components/profile/users-admin";

export const metadata: Metadata = { title: "Users" };

/**
 * Dashboard users (admin, docs/users-and-notifications.md#users-in-the-browser): add with an invitation link, change
 * roles and companies, disable / enable, reset the password, remove passkeys (the recovery for a lost device).
 */
export default async function UsersPage() {
  const load = await loadPage("overview");
  if (!load.ok) return <PageProblem load={load} />;
  if (!can(load.ctx.user.roles, "users.manage"))
    return (
      <PageProblem load={{ kind: "forbidden", title: "No access", message: "Your role does not include Users." }} />
    );
  return (
    <div className="max-w-7xl">
      <PageHeader
        title="Users"
        description="People who sign in to the dashboard: add, change roles and companies, disable, reset, passkeys"
      />
      <UsersAdmin
        companies={load.ctx.companies.map((c) => ({ id: c.id, name: c.name }))}
        currentUserId={load.ctx.user.id}
      />
    </div>
  );
}
