"use client";

import { useMemo } from "react";
import { Area, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useLocale } from "@/components/format/use-locale";
import { COLORS, ChartFrame, datedTooltip, amountAxis, dateAxis } from "./chart-frame";
import { Key } from "./cashflow-chart";

/** Colours of up to three scenarios beside the base case. */
export const SCENARIO_COLORS = ["#ea580c", "#059669", "#db2777"] as const;

/** One bucket of the group forecast in the reporting currency (decimal strings). */
export interface BandPoint {
  start: string;
  amount: string;
  p10: string;
  p90: string;
}

/**
 * The group's net flow per bucket (week or day) in the reporting currency: the point forecast as a line over its
 * P10–P90 band (docs/forecast.md#backtest-and-accuracy). Numbers are for drawing only; the tooltip shows the exact
 * decimal strings.
 */
export function ForecastBandChart({ points, currency }: { points: readonly BandPoint[]; currency: string }) {
  const locale = useLocale();
  const data = useMemo(
    () => points.map((p) => ({ ...p, y: Number(p.amount), band: [Number(p.p10), Number(p.p90)] as [number, number] })),
    [points],
  );
  return (
    <ChartFrame
      title={`Net flow · ${currency}`}
      label={`Forecast net flow per period in ${currency} with its P10–P90 band`}
      legend={
        <span className="flex gap-3 text-xs font-normal text-slate-600">
          <Key color={COLORS.forecast} label="Forecast" line />
          <Key color="#c4b5fd" label="P10–P90" />
        </span>
      }
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis {...dateAxis(locale)} dataKey="start" />
          <YAxis
            {...amountAxis(
              locale,
              data.flatMap((d) => d.band),
            )}
          />
          <Area dataKey="band" stroke="none" fill="#c4b5fd" fillOpacity={0.5} isAnimationActive={false} />
          <Line dataKey="y" stroke={COLORS.forecast} dot={false} strokeWidth={2} isAnimationActive={false} />
          <Tooltip
            isAnimationActive={false}
            content={datedTooltip<BandPoint>(
              locale,
              (d) => d.start,
              (d) => [
                { label: "Forecast", amount: d.amount, currency, color: COLORS.forecast },
                { label: "P10", amount: d.p10, currency },
                { label: "P90", amount: d.p90, currency },
              ],
            )}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

/** A balance path: daily closing balance in the reporting currency. */
export interface BalancePath {
  name: string;
  path: readonly { date: string; amount: string }[];
}

/** The group's daily balance of the base case and up to three scenarios on one chart. */
export function ScenarioBalanceChart({ cases, currency }: { cases: readonly BalancePath[]; currency: string }) {
  const locale = useLocale();
  const data = useMemo(() => {
    const first = cases[0]?.path ?? [];
    return first.map((p, i) => {
      const row: Record<string, string | number> = { date: p.date };
      cases.forEach((c, k) => {
        const v = c.path[i]?.amount ?? "0";
        row[`v${k}`] = Number(v);
        row[`s${k}`] = v;
      });
      return row;
    });
  }, [cases]);
  const color = (k: number) => (k === 0 ? COLORS.line : (SCENARIO_COLORS[k - 1] ?? COLORS.net));
  return (
    <ChartFrame
      title={`Balance · ${currency}`}
      label={`Daily group balance in ${currency}: base case and scenarios`}
      legend={
        <span className="flex flex-wrap gap-3 text-xs font-normal text-slate-600">
          {cases.map((c, k) => (
            <Key key={c.name} color={color(k)} label={c.name} line dashed={k > 0} />
          ))}
        </span>
      }
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis {...dateAxis(locale)} />
          <YAxis
            {...amountAxis(
              locale,
              data.flatMap((d) => cases.map((_, k) => Number(d[`v${k}`] ?? 0))),
            )}
            domain={["auto", "auto"]}
          />
          {cases.map((c, k) => (
            <Line
              key={c.name}
              dataKey={`v${k}`}
              name={c.name}
              stroke={color(k)}
              strokeDasharray={k > 0 ? "5 3" : undefined}
              dot={false}
              strokeWidth={2}
              isAnimationActive={false}
            />
          ))}
          <Tooltip
            isAnimationActive={false}
            content={datedTooltip<Record<string, string>>(
              locale,
              (d) => String(d.date),
              (d) => cases.map((c, k) => ({ label: c.name, amount: d[`s${k}`] ?? null, currency, color: color(k) })),
            )}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
