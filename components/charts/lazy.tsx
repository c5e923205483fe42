"use client";

/**
 * Lazily loaded charts: recharts is loaded with `next/dynamic` so that
 * pages without charts do not ship it. Import charts only from here;
 * each renders a same-height skeleton while its chunk loads, and is not
 * server-rendered (Recharts measures the DOM).
 */
import dynamic from "next/dynamic";

function ChartSkeleton() {
  return (
    <div
      className="h-[270px] animate-pulse rounded-lg border border-slate-200 bg-slate-100"
      role="status"
      aria-busy="true"
      aria-label="Loading chart"
    />
  );
}

export const IntradayChart = dynamic(() => import("./intraday-chart").then((m) => m.IntradayChart), {
  ssr: false,
  loading: ChartSkeleton,
});
export const CashflowChart = dynamic(() => import("./cashflow-chart").then((m) => m.CashflowChart), {
  ssr: false,
  loading: ChartSkeleton,
});
export const PositionChart = dynamic(() => import("./position-chart").then((m) => m.PositionChart), {
  ssr: false,
  loading: ChartSkeleton,
});
export const ForecastChart = dynamic(() => import("./forecast-chart").then((m) => m.ForecastChart), {
  ssr: false,
  loading: ChartSkeleton,
});
export const ForecastBandChart = dynamic(() => import("./cash-forecast-chart").then((m) => m.ForecastBandChart), {
  ssr: false,
  loading: ChartSkeleton,
});
export const ScenarioBalanceChart = dynamic(() => import("./cash-forecast-chart").then((m) => m.ScenarioBalanceChart), {
  ssr: false,
  loading: ChartSkeleton,
});
