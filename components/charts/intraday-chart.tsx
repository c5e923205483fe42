"use client";

import { useMemo } from "react";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { IntradayBalancePoint } from "@treasury/contract";
import { downsample } from "@/lib/downsample";
import { formatTimestamp, formatTimeOfDay } from "@/lib/format-date";
import { useLocale, useTimeZone } from "@/components/format/use-locale";
import { AXIS_TICK, CHART_MARGIN, COLORS, ChartFrame, TooltipBox, amountAxis } from "./chart-frame";
import { intradaySeries, type IntradayDatum } from "./series";

/** At most this many points are drawn ("at most about 1,500"). */
export const MAX_DRAWN_POINTS = 1500;

/**
 * Intraday balance of one account: points sorted by time,
 * downsampled with LTTB (extremes kept) to at most `MAX_DRAWN_POINTS`, with
 * a tooltip showing the exact balance of the nearest drawn point.
 */
export function IntradayChart({
  points,
  currency,
  title,
}: {
  points: readonly IntradayBalancePoint[];
  currency: string;
  title?: string;
}) {
  const locale = useLocale();
  const timeZone = useTimeZone();
  const data = useMemo(
    () => downsample(intradaySeries(points), MAX_DRAWN_POINTS, { x: (d) => d.t, y: (d) => d.y }),
    [points],
  );
  const multiDay = data.length > 1 && (data[data.length - 1]?.t ?? 0) - (data[0]?.t ?? 0) > 86_400_000;
  return (
    <ChartFrame
      title={title}
      label={`Intraday balance in ${currency}, ${points.length} points${
        data.length < points.length ? `, ${data.length} drawn` : ""
      }`}
      legend={
        <span className="text-xs font-normal text-slate-500" data-testid="drawn-points">
          {data.length < points.length
            ? `${data.length.toLocaleString(locale)} of ${points.length.toLocaleString(locale)} points drawn`
            : `${points.length.toLocaleString(locale)} points`}
        </span>
      }
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data as IntradayDatum[]} margin={CHART_MARGIN}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={["dataMin", "dataMax"]}
            tickFormatter={(t: number) =>
              multiDay
                ? formatTimestamp(new Date(t).toISOString(), locale, { timeZone })
                : formatTimeOfDay(t, locale, timeZone)
            }
            tick={AXIS_TICK}
            minTickGap={40}
          />
          <YAxis
            {...amountAxis(
              locale,
              (data as IntradayDatum[]).map((d) => d.y),
            )}
            domain={["auto", "auto"]}
          />
          <Tooltip
            isAnimationActive={false}
            content={({ active, payload }) => {
              const d = active ? (payload?.[0]?.payload as IntradayDatum | undefined) : undefined;
              if (!d) return null;
              return (
                <TooltipBox
                  locale={locale}
                  heading={formatTimestamp(d.timestamp, locale, { seconds: true, timeZone, zoneName: true })}
                  rows={[{ label: d.balance_type.replace("_", " "), amount: d.balance, currency, color: COLORS.line }]}
                />
              );
            }}
          />
          <Line
            type="linear"
            dataKey="y"
            stroke={COLORS.line}
            strokeWidth={1.5}
            dot={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
