"use client";

import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useQueryClient } from "@tanstack/react-query";
import { Check, ChevronDown } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { BffRequestError, callBff } from "@/components/data/bff-fetch";
import { sessionEndpoints } from "@/lib/bff/areas/session/endpoints";
import { toast } from "@/components/ui/toast";

/**
 * The reporting-currency switch in the header: a menu of the supported
 * currencies; choosing one stores it through the BFF (PUT
 * /api/session/reporting-currency), then refreshes server components and
 * drops cached queries so that every converted figure is recomputed. On a
 * phone it is a 44 px target showing just the code.
 */
export function ReportingCurrencySwitch({ current, supported }: { current: string; supported: string[] }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  // The choice being saved, shown until the refreshed page brings it back as `current`.
  const [target, setTarget] = useState<string | null>(null);
  const shown = target ?? current;

  async function choose(currency: string) {
    if (currency === shown) return;
    setTarget(currency);
    try {
      await callBff(sessionEndpoints.setReportingCurrency, {
        body: { currency },
        idempotencyKey: crypto.randomUUID(),
      });
      startTransition(() => {
        setTarget(null);
        void queryClient.invalidateQueries();
        router.refresh();
      });
    } catch (err) {
      setTarget(null);
      toast.error(err instanceof BffRequestError ? err.message : "The reporting currency could not be changed.");
    }
  }

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        data-testid="reporting-currency"
        aria-label={`Reporting currency: ${shown}. Change`}
        aria-busy={pending}
        className={
          "inline-flex h-11 items-center gap-1 rounded-md border sm:gap-1.5 " +
          "border-slate-300 bg-white px-1.5 text-[13px] sm:px-2.5 md:h-8 " +
          "font-medium text-slate-800 shadow-xs hover:bg-slate-50 data-[state=open]:bg-slate-100 disabled:opacity-60"
        }
        disabled={pending}
      >
        <span className="hidden text-xs font-medium uppercase tracking-wide text-slate-500 sm:inline">Report in</span>
        <span data-testid="reporting-currency-value">{shown}</span>
        {/* On a phone the code alone, so the company switcher keeps its room. */}
        <ChevronDown className="hidden size-3.5 text-slate-500 sm:block" aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className={
            "z-50 max-h-80 min-w-36 overflow-auto rounded-md " +
            "border border-slate-200 bg-white p-1 text-[13px] shadow-md"
          }
        >
          <DropdownMenu.Label className="px-2 py-1 text-xs text-slate-500">Reporting currency</DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={shown} onValueChange={(v) => void choose(v)}>
            {supported.map((c) => (
              <DropdownMenu.RadioItem
                key={c}
                value={c}
                data-testid={`reporting-currency-${c}`}
                className={
                  "relative flex cursor-default select-none items-center rounded py-1 pl-7 pr-2 outline-none " +
                  "data-[highlighted]:bg-sky-50 data-[highlighted]:text-sky-900"
                }
              >
                <DropdownMenu.ItemIndicator className="absolute left-2 inline-flex">
                  <Check className="size-3.5" aria-hidden />
                </DropdownMenu.ItemIndicator>
                {c}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
