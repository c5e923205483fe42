"use client";

import { useMemo } from "react";
import { CartesianGrid, Line, LineChart, ReferenceArea, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ForecastEntry, PositionDay } from "@treasury/contract";
import { useLocale } from "@/components/format/use-locale";
import { COLORS, ChartFrame, datedTooltip, amountAxis, dateAxis } from "./chart-frame";
import { Key } from "./cashflow-chart";
import { forecastSeries, type ForecastDatum } from "./series";

/**
 * Actual positions continued by the forecast: the forecast is
 * a dashed violet line over a shaded "Forecast" band, so it cannot be
 * mistaken for booked figures.
 */
export function ForecastChart({
  positions,
  forecast,
  currency,
}: {
  positions: readonly PositionDay[];
  forecast: readonly ForecastEntry[];
  currency: string;
}) {
  const locale = useLocale();
  const data = useMemo(() => forecastSeries(positions, forecast), [positions, forecast]);
  const seam = data.find((d) => d.forecast !== null)?.date;
  const end = data[data.length - 1]?.date;
  return (
    <ChartFrame
      title={`Forecast · ${currency}`}
      label={`Actual and forecast position in ${currency}`}
      legend={
        <span className="flex gap-3 text-xs font-normal text-slate-600">
          <Key color={COLORS.line} label="Actual" line />
          <Key color={COLORS.forecast} label="Forecast" line dashed />
        </span>
      }
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis {...dateAxis(locale)} />
          <YAxis
            {...amountAxis(
              locale,
              data.flatMap((d) => [d.actual, d.forecast].filter((v): v is number => v !== null)),
            )}
            domain={["auto", "auto"]}
          />
          {seam && end && seam !== end && (
            <ReferenceArea
              x1={seam}
              x2={end}
              fill={COLORS.forecast}
              fillOpacity={0.05}
              label={{ value: "Forecast", position: "insideTopRight", fontSize: 12, fill: COLORS.forecast }}
            />
          )}
          <Tooltip
            isAnimationActive={false}
            content={datedTooltip<ForecastDatum>(
              locale,
              (d) => d.date,
              (d) => [
                { label: "Actual", amount: d.actualAmount, currency, color: COLORS.line },
                {
                  label: "Forecast",
                  amount: d.actualAmount === null ? d.forecastAmount : null,
                  currency,
                  color: COLORS.forecast,
                },
              ],
            )}
          />
          <Line
            type="monotone"
            dataKey="actual"
            stroke={COLORS.line}
            strokeWidth={1.5}
            dot={false}
            connectNulls={false}
            isAnimationActive={false}
          />
          <Line
            type="monotone"
            dataKey="forecast"
            stroke={COLORS.forecast}
            strokeWidth={1.5}
            strokeDasharray="5 4"
            dot={false}
            connectNulls={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
