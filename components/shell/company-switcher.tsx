"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "@/components/ui/toast";
import { bffFetch, BffRequestError } from "@/components/data/bff-fetch";

export interface SwitcherCompany {
  id: string;
  name: string;
  country: string;
}

/**
 * The company switcher: sets the company cookie through the BFF (which
 * checks the user may use it), then refreshes server components and drops
 * cached queries of the previous company. On a phone it takes the header's
 * free width (its label is read by screen readers only).
 */
export function CompanySwitcher({ companies, currentId }: { companies: SwitcherCompany[]; currentId: string | null }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();

  if (companies.length === 0) {
    return <span className="text-slate-500">No company available</span>;
  }

  async function choose(id: string) {
    try {
      await bffFetch("/api/session/company", {
        method: "POST",
        body: { company_id: id },
        idempotencyKey: crypto.randomUUID(),
      });
      startTransition(() => {
        void queryClient.invalidateQueries();
        router.refresh();
      });
    } catch (err) {
      toast.error(err instanceof BffRequestError ? err.message : "The company could not be switched.");
    }
  }

  return (
    <label className="flex min-w-0 flex-1 items-center gap-2 md:flex-none">
      <span className="sr-only text-xs font-medium uppercase tracking-wide text-slate-500 md:not-sr-only">Company</span>
      <select
        data-testid="company-switcher"
        className={
          "h-11 w-full min-w-0 rounded-md border border-slate-300 bg-white px-2 text-[13px] text-slate-900 " +
          "shadow-xs disabled:opacity-60 md:h-8 md:w-auto md:min-w-56"
        }
        value={currentId ?? ""}
        disabled={pending}
        aria-busy={pending}
        onChange={(e) => void choose(e.target.value)}
      >
        {currentId === null && <option value="">Choose a company</option>}
        {companies.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name} ({c.country})
          </option>
        ))}
      </select>
    </label>
  );
}
