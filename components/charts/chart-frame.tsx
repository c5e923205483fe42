"use client";

import type { ReactNode } from "react";
import { formatMoney } from "@/lib/money";
import { formatBusinessDate } from "@/lib/format-date";

/** Plot margins of every chart (px). */
export const CHART_MARGIN = { top: 4, right: 8, bottom: 0, left: 0 };
/** Tick text of every axis. */
export const AXIS_TICK = { fontSize: 12, fill: "#64748b" };

/** Props of an X axis of business dates (`date`, `YYYY-MM-DD`), labelled short in `locale`. */
export function dateAxis(locale: string) {
  return {
    dataKey: "date",
    tickFormatter: (d: string) => formatBusinessDate(d, locale, "short"),
    tick: AXIS_TICK,
    minTickGap: 24,
  };
}

/** Props of a Y axis of amounts: compact ticks fitted to the plotted `values` (`compactTick`). */
export function amountAxis(locale: string, values: readonly number[]) {
  return { tickFormatter: compactTick(locale, values), tick: AXIS_TICK, width: 56 };
}

/**
 * Y-axis tick labels in compact notation (`5.63M`), with as many fraction digits as the axis needs so neighbouring
 * ticks never read alike: `values` are the plotted numbers; the digits follow from the expected tick step (a fifth of
 * their range) relative to the compact unit of the largest magnitude (thousand, million, billion). 1–3 digits.
 */
export function compactTick(locale: string, values: readonly number[] = []) {
  const f = new Intl.NumberFormat(locale, {
    notation: "compact",
    maximumFractionDigits: compactFractionDigits(values),
  });
  return (v: number) => f.format(v);
}

/** Fraction digits `compactTick` uses for these values (1 when they are empty or flat). */
export function compactFractionDigits(values: readonly number[]): number {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return 1;
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  const largest = Math.max(Math.abs(min), Math.abs(max));
  if (max === min || largest < 1000) return 1;
  const unit = 10 ** (3 * Math.floor(Math.log10(largest) / 3));
  const step = (max - min) / 5 / unit;
  return Math.min(3, Math.max(1, Math.ceil(-Math.log10(step))));
}

/**
 * The box around a chart: a title, an accessible name and a fixed height so the layout does not jump while Recharts
 * loads.
 */
export function ChartFrame({
  title,
  label,
  height = 240,
  children,
  legend,
}: {
  title?: ReactNode;
  label: string;
  height?: number;
  children: ReactNode;
  legend?: ReactNode;
}) {
  return (
    <figure className="rounded-lg border border-slate-200 bg-white p-3" aria-label={label}>
      {(title || legend) && (
        <figcaption className="mb-2 flex items-center justify-between gap-3 text-[13px] font-medium text-slate-700">
          <span>{title}</span>
          {legend}
        </figcaption>
      )}
      <div style={{ height }} data-testid="chart">
        {children}
      </div>
    </figure>
  );
}

/** One line of a `TooltipBox`: a label, an exact amount (decimal string; null: the line is left out) and its currency. */
export type TooltipRow = { label: string; amount: string | null; currency: string; color?: string };

/**
 * Recharts' tooltip `content` over dated points: the hovered point's datum (`T`, the first payload's), headed by its
 * business date (`date(d)`, `YYYY-MM-DD`, written long in `locale`), with the lines `rows(d)`; nothing when no point is
 * hovered.
 */
export function datedTooltip<T>(locale: string, date: (d: T) => string, rows: (d: T) => TooltipRow[]) {
  return function DatedTooltip({ active, payload }: { active?: boolean; payload?: readonly { payload?: unknown }[] }) {
    const d = active ? (payload?.[0]?.payload as T | undefined) : undefined;
    if (!d) return null;
    return <TooltipBox locale={locale} heading={formatBusinessDate(date(d), locale, "long")} rows={rows(d)} />;
  };
}

/** Tooltip body: a heading and exact amounts with their currency. */
export function TooltipBox({ heading, rows, locale }: { heading: string; rows: TooltipRow[]; locale: string }) {
  return (
    <div className="rounded-md border border-slate-200 bg-white px-3 py-2 text-xs shadow-md">
      <div className="mb-1 font-medium text-slate-900">{heading}</div>
      {rows
        .filter((r) => r.amount !== null)
        .map((r) => (
          <div key={r.label} className="flex items-center justify-between gap-4">
            <span className="flex items-center gap-1.5 text-slate-600">
              {r.color && (
                <span className="inline-block size-2 rounded-sm" style={{ background: r.color }} aria-hidden />
              )}
              {r.label}
            </span>
            <span className="tabular text-slate-900">{formatMoney(r.amount ?? "0", r.currency, { locale })}</span>
          </div>
        ))}
    </div>
  );
}

/** Chart colours (Tailwind sky / emerald / rose / slate), readable on white. */
export const COLORS = {
  line: "#0284c7",
  inflow: "#059669",
  outflow: "#e11d48",
  net: "#334155",
  forecast: "#7c3aed",
} as const;
