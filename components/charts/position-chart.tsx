"use client";

import { useMemo } from "react";
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { PositionDay } from "@treasury/contract";
import { useLocale } from "@/components/format/use-locale";
import { CHART_MARGIN, COLORS, ChartFrame, datedTooltip, amountAxis, dateAxis } from "./chart-frame";
import { positionSeries, type PositionDatum } from "./series";

/** Daily cash position (sum of closing booked balances) of one currency. */
export function PositionChart({
  rows,
  currency,
  height = 220,
  title,
}: {
  rows: readonly PositionDay[];
  currency: string;
  height?: number;
  title?: string;
}) {
  const locale = useLocale();
  const data = useMemo(() => positionSeries(rows), [rows]);
  return (
    <ChartFrame title={title ?? `Position · ${currency}`} label={`Daily cash position in ${currency}`} height={height}>
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={data} margin={CHART_MARGIN}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis {...dateAxis(locale)} />
          <YAxis
            {...amountAxis(
              locale,
              data.map((d) => d.balance),
            )}
            domain={["auto", "auto"]}
          />
          <Tooltip
            isAnimationActive={false}
            content={datedTooltip<PositionDatum>(
              locale,
              (d) => d.date,
              (d) => [{ label: "Closing booked", amount: d.row.balance, currency, color: COLORS.line }],
            )}
          />
          <Area
            type="monotone"
            dataKey="balance"
            stroke={COLORS.line}
            fill={COLORS.line}
            fillOpacity={0.08}
            strokeWidth={1.5}
            dot={false}
            isAnimationActive={false}
          />
        </AreaChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
