"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { signInErrorMessage } from "@/lib/auth/sign-in-errors";
import { useHydrated } from "@/lib/use-hydrated";

/** Only same-site paths are followed after sign-in (no open redirect). */
function safeCallback(url: string | undefined): string {
  return url && url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/login") ? url : "/";
}

/**
 * E-mail / password form (credentials provider) and, when configured, single sign-on.
 * The credentials never travel in a URL: the form posts (not GET) should it ever be submitted natively, and its Sign in
 * button stays disabled until the page has hydrated, which also blocks implicit submission by Enter (HTML: a disabled
 * default button submits nothing). Without JavaScript the form says it needs it.
 */
export function LoginForm({
  callbackUrl,
  oidc,
  initialError,
}: {
  callbackUrl?: string;
  oidc: boolean;
  initialError?: string;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(initialError ? signInErrorMessage(initialError) : null);
  const [busy, setBusy] = useState(false);
  const target = safeCallback(callbackUrl);
  const hydrated = useHydrated();

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    const res = await signIn("credentials", {
      email: String(data.get("email") ?? ""),
      password: String(data.get("password") ?? ""),
      redirect: false,
    });
    if (!res || res.error) {
      setBusy(false);
      setError(signInErrorMessage(res?.error ?? ""));
      return;
    }
    router.replace(target);
    router.refresh();
  }

  return (
    <div className="space-y-4">
      <noscript>
        <p className="rounded-md bg-amber-50 px-3 py-2 text-[13px] text-amber-900">
          Signing in needs JavaScript. Turn it on for this site and reload the page.
        </p>
      </noscript>
      <form
        method="post"
        action="/login"
        onSubmit={(e) => void onSubmit(e)}
        className="space-y-3"
        aria-describedby={error ? "login-error" : undefined}
      >
        <div>
          <label htmlFor="email" className="mb-1 block text-[13px] font-medium text-slate-700">
            E-mail
          </label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="username"
            required
            className="h-9 w-full rounded-md border border-slate-300 bg-white px-3 text-sm shadow-xs"
          />
        </div>
        <div>
          <label htmlFor="password" className="mb-1 block text-[13px] font-medium text-slate-700">
            Password
          </label>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            className="h-9 w-full rounded-md border border-slate-300 bg-white px-3 text-sm shadow-xs"
          />
        </div>
        {error && (
          <p id="login-error" role="alert" className="rounded-md bg-red-50 px-3 py-2 text-[13px] text-red-800">
            {error}
          </p>
        )}
        <button
          type="submit"
          disabled={busy || !hydrated}
          className={
            "h-9 w-full rounded-md bg-slate-900 text-sm font-medium text-white hover:bg-slate-800 " +
            "disabled:opacity-60"
          }
        >
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {oidc && (
        <button
          type="button"
          onClick={() => void signIn("oidc", { callbackUrl: target })}
          className={
            "h-9 w-full rounded-md border border-slate-300 bg-white text-sm font-medium text-slate-800 " +
            "hover:bg-slate-100"
          }
        >
          Sign in with single sign-on
        </button>
      )}
    </div>
  );
}
