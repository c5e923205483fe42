"use client";

import { useCallback, useState } from "react";
import type { CashForecastView } from "@/lib/bff/queries/cash-forecast";
import { callBff } from "@/components/data/bff-fetch";
import { forecastEndpoints, type ForecastInputs } from "@/lib/bff/areas/forecast/endpoints";
import { message, type ForecastWrite } from "./forecast-ui";

/**
 * The cash forecast page's state (docs/forecast.md#the-page): the forecast and its stored inputs as last read, the
 * horizon (`weeks`, 1–26), `granularity`, the compared scenarios (`chosen`), whether a read runs and the last error.
 * `reload` reads both again (`q` overrides the horizon, granularity or scenarios; `refresh` recomputes); `write`
 * sends one write of the inputs with its own Idempotency-Key, reloads, and says whether it succeeded (else `error`).
 */
export function useCashForecast(initial: CashForecastView, initialInputs: ForecastInputs) {
  const [view, setView] = useState(initial);
  const [inputs, setInputs] = useState(initialInputs);
  const [weeks, setWeeks] = useState(initial.weeks);
  const [granularity, setGranularity] = useState(initial.granularity);
  const [chosen, setChosen] = useState<string[]>(initial.scenarios.map((s) => s.id));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(
    async (q: { weeks?: number; granularity?: "day" | "week"; scenarios?: string[]; refresh?: boolean } = {}) => {
      setBusy(true);
      setError(null);
      try {
        const [v, i] = await Promise.all([
          callBff(forecastEndpoints.forecast, {
            query: {
              weeks: q.weeks ?? weeks,
              granularity: q.granularity ?? granularity,
              scenarios: (q.scenarios ?? chosen).join(","),
              refresh: q.refresh ? 1 : undefined,
            },
          }),
          callBff(forecastEndpoints.inputs),
        ]);
        setView(v);
        setInputs(i);
      } catch (e) {
        setError(message(e));
      } finally {
        setBusy(false);
      }
    },
    [weeks, granularity, chosen],
  );

  const write: ForecastWrite = async (e, init = {}) => {
    setError(null);
    try {
      await callBff(e, {
        params: init.id === undefined ? undefined : { id: init.id },
        body: init.body,
        idempotencyKey: crypto.randomUUID(),
      });
      await reload();
      return true;
    } catch (e) {
      setError(message(e));
      return false;
    }
  };

  return {
    view,
    inputs,
    weeks,
    setWeeks,
    granularity,
    setGranularity,
    chosen,
    setChosen,
    busy,
    error,
    setError,
    reload,
    write,
  };
}
