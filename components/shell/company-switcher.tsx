"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { ChevronDown } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { BffRequestError, callBff } from "@/components/data/bff-fetch";
import { sessionEndpoints } from "@/lib/bff/areas/session/endpoints";

export interface SwitcherCompany {
  id: string;
  name: string;
  country: string;
}

/**
 * The company switcher: sets the company cookie through the BFF (which
 * checks the user may use it), then refreshes server components and drops
 * cached queries of the previous company. On a phone it takes the header's
 * free width (its label is read by screen readers only); from 360 px wide the
 * country code stays whole and a name too long for the width ends in an ellipsis.
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
      await callBff(sessionEndpoints.selectCompany, {
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

  const current = companies.find((c) => c.id === currentId) ?? null;
  return (
    <label className="flex min-w-0 flex-1 items-center gap-2 md:flex-initial">
      <span className="sr-only text-xs font-medium uppercase tracking-wide text-slate-500 md:not-sr-only">Company</span>
      {/*
        What shows is the company's name and, apart from it, its country code, so a long name is shortened
        (ellipsis) but the code never cut; the native select lies over it, transparent, so a tap opens the
        platform's picker and screen readers and keyboards get a plain select.
      */}
      <span
        className={
          "relative flex h-11 w-full min-w-0 items-center gap-1 rounded-md border border-slate-300 bg-white px-2 " +
          "text-[13px] text-slate-900 shadow-xs has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-sky-600 " +
          "sm:gap-1.5 md:h-8 md:w-auto md:min-w-56"
        }
        data-testid="company-switcher-box"
      >
        <span className="min-w-0 flex-1 truncate" data-testid="company-switcher-name" aria-hidden>
          {current?.name ?? "Choose a company"}
        </span>
        {current && (
          <span
            className="shrink-0 rounded bg-slate-100 px-1 text-xs font-medium text-slate-700"
            data-testid="company-switcher-country"
            aria-hidden
          >
            {current.country}
          </span>
        )}
        {/* Below `sm` the box alone says "pick one": the chevron's room goes to the name. */}
        <ChevronDown className="hidden size-3.5 shrink-0 text-slate-500 sm:block" aria-hidden />
        <select
          data-testid="company-switcher"
          className="absolute inset-0 size-full cursor-pointer opacity-0 disabled:cursor-wait"
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
      </span>
    </label>
  );
}
