"use client";

import { useMemo } from "react";
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { CashflowDay } from "@treasury/contract";
import { useLocale } from "@/components/format/use-locale";
import { CHART_MARGIN, COLORS, ChartFrame, datedTooltip, amountAxis, dateAxis } from "./chart-frame";
import { cashflowSeries, type CashflowDatum } from "./series";

/** Daily inflow (up) and outflow (down) bars with the net as a line, one currency. */
export function CashflowChart({ rows, currency }: { rows: readonly CashflowDay[]; currency: string }) {
  const locale = useLocale();
  const data = useMemo(() => cashflowSeries(rows), [rows]);
  return (
    <ChartFrame
      title={`Cashflow · ${currency}`}
      label={`Daily inflow, outflow and net in ${currency}`}
      legend={
        <span className="flex gap-3 text-xs font-normal text-slate-600">
          <Key color={COLORS.inflow} label="Inflow" />
          <Key color={COLORS.outflow} label="Outflow" />
          <Key color={COLORS.net} label="Net" line />
        </span>
      }
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={CHART_MARGIN} stackOffset="sign">
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis {...dateAxis(locale)} />
          <YAxis
            {...amountAxis(
              locale,
              data.flatMap((d) => [d.inflow, d.outflow, d.net]),
            )}
          />
          <ReferenceLine y={0} stroke="#94a3b8" />
          <Tooltip
            isAnimationActive={false}
            content={datedTooltip<CashflowDatum>(
              locale,
              (d) => d.date,
              (d) => [
                { label: "Inflow", amount: d.row.inflow, currency, color: COLORS.inflow },
                { label: "Outflow", amount: d.row.outflow, currency, color: COLORS.outflow },
                { label: "Net", amount: d.row.net, currency, color: COLORS.net },
              ],
            )}
          />
          <Bar dataKey="inflow" stackId="flow" fill={COLORS.inflow} isAnimationActive={false} maxBarSize={18} />
          <Bar dataKey="outflow" stackId="flow" fill={COLORS.outflow} isAnimationActive={false} maxBarSize={18} />
          <Line dataKey="net" stroke={COLORS.net} strokeWidth={1.5} dot={false} isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

export function Key({
  color,
  label,
  line = false,
  dashed = false,
}: {
  color: string;
  label: string;
  line?: boolean;
  dashed?: boolean;
}) {
  return (
    <span className="flex items-center gap-1">
      {line ? (
        <svg width="14" height="6" aria-hidden>
          <line
            x1="0"
            y1="3"
            x2="14"
            y2="3"
            stroke={color}
            strokeWidth="2"
            strokeDasharray={dashed ? "3 2" : undefined}
          />
        </svg>
      ) : (
        <span className="inline-block size-2.5 rounded-sm" style={{ background: color }} aria-hidden />
      )}
      {label}
    </span>
  );
}
