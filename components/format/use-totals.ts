"use client";

/**
 * Exact per-currency totals (`lib/totals`, decimal.js) for views that show
 * them under their rows, without decimal.js (≈ 10 KB gz) on the page's
 * first load: the module is imported when the first such view mounts and
 * shared afterwards. Until it has arrived — on the server, during
 * hydration, and for the few milliseconds after — the hooks return null
 * and the view shows its rows without totals. Sums stay exact decimals;
 * nothing here touches a float.
 */
import { useMemo, useSyncExternalStore } from "react";
import type * as Totals from "@/lib/totals";

type TotalsModule = typeof Totals;

let loaded: TotalsModule | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  loading ??= import("@/lib/totals")
    .then((m) => {
      loaded = m;
      for (const l of listeners) l();
    })
    .catch(() => {
      // A failed chunk load (offline, a deploy in between) is retried by the next view that mounts.
      loading = null;
    });
  return () => {
    listeners.delete(onChange);
  };
}

/** `lib/totals` once loaded; null on the server, while hydrating and until the chunk has arrived. */
function useTotalsModule(): TotalsModule | null {
  return useSyncExternalStore(
    subscribe,
    () => loaded,
    () => null,
  );
}

/**
 * `flowTotalsByCurrency(rows)` (inflow, outflow and net per currency of
 * transactions; see lib/totals), or null while decimal.js loads.
 */
export function useFlowTotals(
  rows: readonly { amount: string; currency: string; direction: "credit" | "debit" }[],
): Totals.FlowTotal[] | null {
  const totals = useTotalsModule();
  return useMemo(() => (totals ? totals.flowTotalsByCurrency(rows) : null), [totals, rows]);
}
