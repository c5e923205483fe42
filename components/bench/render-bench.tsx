"use client";

import { useEffect, useMemo, useState } from "react";
import type { IntradayBalancePoint, Transaction } from "@treasury/contract";
import { TransactionsTable } from "@/components/tables/transactions-table";
import { IntradayChart } from "@/components/charts/lazy";

/** Synthetic rows: realistic shapes, deterministic, exact decimal strings. */
function transactions(n: number): Transaction[] {
  const out: Transaction[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const day = String(1 + (i % 28)).padStart(2, "0");
    out[i] = {
      id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      account_id: "00000000-0000-4000-8000-000000000000",
      amount: `${(i * 7919) % 100000}.${String(i % 100).padStart(2, "0")}`,
      currency: i % 3 ? "NOK" : "EUR",
      direction: i % 2 ? "debit" : "credit",
      booked_at: `2026-01-${day}T10:00:00Z`,
      value_at: `2026-01-${day}T10:00:00Z`,
      counterparty_name: `Counterparty ${i % 500}`,
      remittance: `Invoice ${i}`,
    };
  }
  return out;
}

function intraday(n: number): IntradayBalancePoint[] {
  const start = Date.UTC(2026, 0, 10);
  return Array.from({ length: n }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    account_id: "00000000-0000-4000-8000-000000000000",
    timestamp: new Date(start + i * 10_000).toISOString(),
    balance: (1_000_000 + Math.round(Math.sin(i / 300) * 25_000_00) / 100).toFixed(2),
    currency: "NOK",
    balance_type: "interim_booked" as const,
  }));
}

/**
 * Render benchmark harness (bench/ui.ts): mounts the real virtualized
 * transactions table with 100,000 rows, or the real intraday chart with
 * 8,640 points, and records the time from mount to the first painted frame
 * with content in `data-render-ms`.
 */
export function RenderBench({ kind }: { kind: "transactions" | "intraday" }) {
  const [t0] = useState(() => performance.now());
  const [ms, setMs] = useState<number | null>(null);
  const rows = useMemo(() => (kind === "transactions" ? transactions(100_000) : []), [kind]);
  const points = useMemo(() => (kind === "intraday" ? intraday(8640) : []), [kind]);
  useEffect(() => {
    const sel = kind === "transactions" ? "[data-testid=transaction-row]" : ".recharts-line-curve";
    let raf = 0;
    const check = () => {
      if (document.querySelector(sel)) requestAnimationFrame(() => setMs(performance.now() - t0));
      else raf = requestAnimationFrame(check);
    };
    raf = requestAnimationFrame(check);
    return () => cancelAnimationFrame(raf);
  }, [kind, t0]);
  return (
    <div className="p-4" data-render-ms={ms ?? undefined} data-testid="bench">
      {kind === "transactions" ? (
        <TransactionsTable rows={rows} onOpen={() => undefined} />
      ) : (
        <IntradayChart points={points} currency="NOK" />
      )}
    </div>
  );
}
