"use client";

import { useQueryStates } from "nuqs";
import type { IntradayBalancePoint } from "@treasury/contract";
import { BALANCE_TYPES } from "@treasury/contract/enums";
import { INTRADAY_SPANS, intradayParsers } from "@/lib/url-state/intraday";
import { DateField } from "@/components/ui/date-field";
import { IntradayChart } from "@/components/charts/lazy";
import { EmptyState } from "@/components/ui/states";
import { FilterSelect } from "@/components/list-controls/controls";

const TYPE_LABELS: Record<string, string> = {
  closing_booked: "Closing booked",
  closing_available: "Closing available",
  interim_booked: "Interim booked",
  interim_available: "Interim available",
};

/** The intraday chart with its day / span / balance-type controls (URL state; a change re-reads on the server). */
export function IntradayPanel({
  points,
  currency,
  day,
  span,
  balanceType,
  today,
}: {
  points: IntradayBalancePoint[];
  currency: string;
  day: string;
  span: number;
  balanceType: string;
  today: string;
}) {
  const [, set] = useQueryStates(intradayParsers, { shallow: false, history: "push", scroll: false });
  return (
    <section aria-labelledby="intraday-h" className="space-y-2">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="intraday-h" className="text-sm font-semibold text-slate-900">
          Intraday balance
        </h2>
        <div className="flex flex-wrap items-end gap-3">
          <DateField label="Day" value={day} max={today} onChange={(v) => v && set({ day: v })} testId="intraday-day" />
          <FilterSelect
            label="Days"
            anyLabel="1 day"
            value={span === 1 ? null : String(span)}
            options={INTRADAY_SPANS.filter((s) => s !== "1").map((s) => ({ value: s, label: `${s} days` }))}
            onChange={(v) => set({ span: v === "3" || v === "7" ? v : null })}
            testId="intraday-span"
          />
          <FilterSelect
            label="Balance type"
            anyLabel="Interim booked"
            value={balanceType === "interim_booked" ? null : balanceType}
            options={BALANCE_TYPES.filter((t) => t !== "interim_booked").map((t) => ({
              value: t,
              label: TYPE_LABELS[t] ?? t,
            }))}
            onChange={(v) => set({ btype: BALANCE_TYPES.find((t) => t === v) ?? null })}
            testId="intraday-type"
          />
        </div>
      </div>
      {points.length === 0 ? (
        <EmptyState title="No intraday balances for this day">
          The bank sends intraday balances for recent days only. Pick another day or balance type.
        </EmptyState>
      ) : (
        <IntradayChart points={points} currency={currency} />
      )}
    </section>
  );
}
