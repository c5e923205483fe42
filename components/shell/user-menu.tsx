"use client";

import { useState } from "react";
import Link from "next/link";
import { LogOut, UserRound } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { signOutTo } from "./sign-out";

/**
 * Who is signed in, with which roles, the profile link (passkeys) and the sign-out button. Below `md` only
 * sign-out shows, as an icon with a 44 px target, so the company switcher keeps room for a company's name; the
 * navigation sheet says who is signed in and links to the profile.
 */
export function UserMenu({ name, email, roles }: { name: string; email: string; roles: string[] }) {
  const [leaving, setLeaving] = useState(false);

  async function signOut() {
    setLeaving(true);
    try {
      await signOutTo("/login");
    } catch (err) {
      setLeaving(false);
      toast.error(err instanceof Error ? err.message : "Sign-out failed.");
    }
  }

  return (
    <div className="flex shrink-0 items-center gap-2 md:gap-3">
      <div className="hidden text-right leading-tight md:block">
        <div className="text-[13px] font-medium text-slate-900" data-testid="user-name">
          {name}
        </div>
        <div className="text-xs text-slate-500" title={email}>
          <span data-testid="user-roles">{roles.join(", ")}</span>
        </div>
      </div>
      <Link
        href="/profile"
        className={
          "hidden size-11 items-center justify-center gap-1.5 rounded-md border border-slate-300 bg-white " +
          "text-[13px] font-medium text-slate-700 hover:bg-slate-100 md:inline-flex md:h-8 md:w-auto md:px-2.5"
        }
        data-testid="profile-link"
      >
        <UserRound className="size-4 md:size-3.5" aria-hidden />
        <span className="sr-only xl:not-sr-only">Profile</span>
      </Link>
      <button
        type="button"
        onClick={() => void signOut()}
        disabled={leaving}
        aria-busy={leaving}
        className={
          "inline-flex size-11 items-center justify-center gap-1.5 rounded-md border border-slate-300 bg-white " +
          "text-[13px] font-medium text-slate-700 hover:bg-slate-100 disabled:opacity-60 " +
          "md:h-8 md:w-auto md:px-2.5"
        }
      >
        <LogOut className="size-4 md:size-3.5" aria-hidden />
        <span className="sr-only xl:not-sr-only">Sign out</span>
      </button>
    </div>
  );
}
