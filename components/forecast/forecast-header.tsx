"use client";

import type { CashForecastView } from "@/lib/bff/queries/cash-forecast";
import { BusinessDate } from "@/components/format/business-date";
import { buttonClass } from "@/components/ui/button";
import { field } from "./forecast-ui";

/**
 * The forecast's controls (docs/forecast.md#the-page): weeks ahead (1–26), by week or day, Recompute, and the range
 * and time of the shown forecast. Each change reads the forecast again through `reload`.
 */
export function ForecastToolbar({
  view,
  weeks,
  setWeeks,
  granularity,
  setGranularity,
  busy,
  reload,
}: {
  view: CashForecastView;
  weeks: number;
  setWeeks: (w: number) => void;
  granularity: "day" | "week";
  setGranularity: (g: "day" | "week") => void;
  busy: boolean;
  reload: (q?: { weeks?: number; granularity?: "day" | "week"; refresh?: boolean }) => Promise<void>;
}) {
  return (
    <div className="flex flex-wrap items-end gap-3 text-[13px]">
      <label className="flex flex-col gap-1">
        <span className="text-slate-600">Weeks ahead</span>
        <select
          className={field}
          value={weeks}
          onChange={(e) => {
            const w = Number(e.target.value);
            setWeeks(w);
            void reload({ weeks: w });
          }}
        >
          {Array.from({ length: 26 }, (_, i) => i + 1).map((w) => (
            <option key={w} value={w}>
              {w}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="text-slate-600">By</span>
        <select
          className={field}
          value={granularity}
          onChange={(e) => {
            const g = e.target.value === "day" ? "day" : "week";
            setGranularity(g);
            void reload({ granularity: g });
          }}
        >
          <option value="week">week</option>
          <option value="day">day</option>
        </select>
      </label>
      <button
        type="button"
        className={buttonClass("secondary")}
        disabled={busy}
        onClick={() => void reload({ refresh: true })}
      >
        {busy ? "Working…" : "Recompute"}
      </button>
      <span className="text-slate-500">
        {view.from && (
          <>
            <BusinessDate date={view.from} /> – <BusinessDate date={view.to} />
          </>
        )}
        {" · computed "}
        {new Date(view.computed_at).toLocaleString()}
      </span>
    </div>
  );
}

/**
 * What the reader must know before the figures: the last error, a forecast that is the API's own (no history), the
 * companies and currencies left out, and the rates the group figures use (reporting currency `rc`).
 */
export function ForecastNotices({ view, error }: { view: CashForecastView; error: string | null }) {
  const rc = view.reporting_currency;
  return (
    <>
      {error && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-[13px] text-red-800">
          {error}
        </p>
      )}
      {view.source === "api" && (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-[13px] text-amber-900">
          There is no booking history to model yet: the positions below are the Treasury API&apos;s own forecast.
        </p>
      )}
      {(view.failed_companies.length > 0 || view.missing_rates.length > 0) && (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-[13px] text-amber-900">
          {view.failed_companies.length > 0 && `Left out (could not be read): ${view.failed_companies.join(", ")}. `}
          {view.missing_rates.length > 0 &&
            `No stored rate to ${rc} for ${view.missing_rates.join(", ")}: not in the group total.`}
        </p>
      )}
      <p className="text-[13px] text-slate-600" data-testid="forecast-rates">
        Group figures in {rc}, each currency at its latest stored rate:{" "}
        {view.rates.length === 0
          ? "no other currency."
          : view.rates.map((r) => `1 ${r.currency} = ${r.rate} ${rc} (${r.date})`).join(" · ")}
      </p>
    </>
  );
}
