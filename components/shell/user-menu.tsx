"use client";

import { useState } from "react";
import { LogOut } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { signOutTo } from "./sign-out";

/** Who is signed in, with which roles, and the sign-out button. */
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
    <div className="flex items-center gap-3">
      <div className="text-right leading-tight">
        <div className="text-[13px] font-medium text-slate-900" data-testid="user-name">
          {name}
        </div>
        <div className="text-xs text-slate-500" title={email}>
          <span data-testid="user-roles">{roles.join(", ")}</span>
        </div>
      </div>
      <button
        type="button"
        onClick={() => void signOut()}
        disabled={leaving}
        aria-busy={leaving}
        className={
          "inline-flex h-8 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-2.5 " +
          "text-[13px] font-medium text-slate-700 hover:bg-slate-100 disabled:opacity-60"
        }
      >
        <LogOut className="size-3.5" aria-hidden />
        Sign out
      </button>
    </div>
  );
}
