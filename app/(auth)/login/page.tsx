import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { LoginForm } from "@/components/auth/login-form";
import { currentUser } from "@/lib/auth/session";
import { getConfig } from "@/lib/server/config";
import { DEMO_PASSWORD, DEMO_USERS } from "@/lib/db/demo-users";

export const metadata: Metadata = { title: "Sign in" };

/** Sign-in page; in demo mode it lists the demo accounts. */
export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string; error?: string }>;
}) {
  const { callbackUrl, error } = await searchParams;
  if (await currentUser()) redirect("/");
  const config = getConfig();
  return (
    <AuthCard
      title="Sign in"
      after={
        config.DASHBOARD_DEMO && (
          <section
            aria-label="Demo accounts"
            className="mt-4 rounded-lg border border-sky-200 bg-sky-50 p-4 text-[13px] text-sky-950"
          >
            <p className="mb-2 font-medium">Demo accounts (password {DEMO_PASSWORD})</p>
            <ul className="space-y-0.5 font-mono text-xs">
              {DEMO_USERS.map((u) => (
                <li key={u.email}>
                  {u.email} <span className="text-sky-800">— {u.roles.join(", ")}</span>
                </li>
              ))}
            </ul>
          </section>
        )
      }
    >
      <LoginForm callbackUrl={callbackUrl} oidc={Boolean(config.OIDC_ISSUER)} initialError={error} />
    </AuthCard>
  );
}
