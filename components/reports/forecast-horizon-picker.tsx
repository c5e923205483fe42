"use client";

import { useTransition } from "react";
import { useQueryStates } from "nuqs";
import { FORECAST_HORIZONS, forecastHorizonParsers, type ForecastHorizon } from "@/lib/url-state/forecast-horizon";

/** 7 / 30 / 90 days ahead, as a segmented radio group; the choice goes into the URL and re-reads the forecast. */
export function ForecastHorizonPicker({ value }: { value: ForecastHorizon }) {
  const [pending, startTransition] = useTransition();
  const [, set] = useQueryStates(forecastHorizonParsers, { history: "push", shallow: false, startTransition });
  return (
    <div
      role="radiogroup"
      aria-label="Forecast horizon"
      className="inline-flex rounded-md border border-slate-300 bg-white p-0.5 text-[13px]"
      aria-busy={pending}
      data-testid="forecast-horizon"
    >
      {FORECAST_HORIZONS.map((h) => (
        <button
          key={h}
          type="button"
          role="radio"
          aria-checked={value === h}
          onClick={() => void set({ horizon: h })}
          className={`min-h-8 min-w-16 rounded px-3 ${value === h ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"}`}
        >
          {h} days
        </button>
      ))}
    </div>
  );
}
