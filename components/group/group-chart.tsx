"use client";

import Decimal from "decimal.js";
import { useMemo } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Text, Tooltip, XAxis, YAxis } from "recharts";
import type { AccountPosition } from "@/lib/group/group-position";
import { ChartFrame, TooltipBox, compactTick } from "@/components/charts/chart-frame";
import { useLocale } from "@/components/format/use-locale";

const PALETTE = ["#0284c7", "#059669", "#7c3aed", "#d97706", "#e11d48", "#0f766e", "#4f46e5", "#64748b"];

/** What the bars are and what they are stacked by. */
export interface ChartAxes {
  bar: (a: AccountPosition) => string;
  stack: (a: AccountPosition) => string;
  barLabel: string;
  stackLabel: string;
}

interface Datum {
  bar: string;
  /** Exact decimal strings per stack, for the tooltip. */
  exact: Record<string, string>;
  [stack: string]: number | string | Record<string, string>;
}

/**
 * A bar's name under its bar, wrapped to the bar's share of the axis in at most two lines and cut with an ellipsis
 * beyond, so neighbouring names never overlap on a narrow screen (the tooltip names the bar in full).
 */
function BarTick(props: {
  x?: number;
  y?: number;
  width?: number;
  visibleTicksCount?: number;
  payload?: { value?: string };
}) {
  const band = (props.width ?? 0) / Math.max(1, props.visibleTicksCount ?? 1);
  return (
    <Text
      x={props.x}
      y={props.y}
      width={Math.max(24, band - 6)}
      maxLines={2}
      textAnchor="middle"
      verticalAnchor="start"
      fontSize={12}
      fill="#64748b"
    >
      {props.payload?.value ?? ""}
    </Text>
  );
}

/**
 * Stacked bars of the converted balances: one bar per company (or bank, or
 * currency), stacked by currency (or company). Unconverted amounts are not
 * drawn (they are listed in the table, flagged). Axis ticks are compact;
 * the tooltip shows exact sums.
 */
export function GroupChart({
  accounts,
  currency,
  axes,
  height = 260,
}: {
  accounts: readonly AccountPosition[];
  currency: string;
  axes: ChartAxes;
  height?: number;
}) {
  const locale = useLocale();
  const { data, stacks } = useMemo(() => {
    const rows = new Map<string, Datum>();
    const stackSet = new Set<string>();
    for (const a of accounts) {
      if (a.conversion?.status !== "converted") continue;
      const bar = axes.bar(a);
      const stack = axes.stack(a);
      stackSet.add(stack);
      let row = rows.get(bar);
      if (!row) rows.set(bar, (row = { bar, exact: {} }));
      row.exact[stack] = new Decimal(row.exact[stack] ?? 0).plus(a.conversion.value).toFixed();
      row[stack] = Number(row.exact[stack]);
    }
    return { data: [...rows.values()], stacks: [...stackSet].sort() };
  }, [accounts, axes]);

  return (
    <ChartFrame
      title={`Cash by ${axes.barLabel} and ${axes.stackLabel} · ${currency}`}
      label={`Stacked bars of cash in ${currency} by ${axes.barLabel}, stacked by ${axes.stackLabel}`}
      height={height}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="bar" tick={<BarTick />} interval={0} height={40} />
          <YAxis tickFormatter={compactTick(locale)} tick={{ fontSize: 12, fill: "#64748b" }} width={56} />
          <Tooltip
            isAnimationActive={false}
            content={({ active, payload }) => {
              const d = active ? (payload?.[0]?.payload as Datum | undefined) : undefined;
              if (!d) return null;
              return (
                <TooltipBox
                  locale={locale}
                  heading={d.bar}
                  rows={stacks
                    .filter((s) => d.exact[s] !== undefined)
                    .map((s, i) => ({
                      label: s,
                      amount: d.exact[s] ?? null,
                      currency,
                      color: PALETTE[i % PALETTE.length],
                    }))}
                />
              );
            }}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {stacks.map((s, i) => (
            <Bar key={s} dataKey={s} stackId="cash" fill={PALETTE[i % PALETTE.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
