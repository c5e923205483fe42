/**
 * Forecast horizon in the URL (`horizon`): how many days ahead the forecast reaches, 7, 30 (default) or 90. Shared
 * by the server page's loader and the client picker, so both read the same value.
 */
import { createLoader, parseAsNumberLiteral } from "nuqs/server";

export const FORECAST_HORIZONS = [7, 30, 90] as const;
export type ForecastHorizon = (typeof FORECAST_HORIZONS)[number];
export const DEFAULT_FORECAST_HORIZON: ForecastHorizon = 30;

/** nuqs parser of `horizon`; anything else in the URL reads as the default. */
export const forecastHorizonParsers = {
  horizon: parseAsNumberLiteral(FORECAST_HORIZONS).withDefault(DEFAULT_FORECAST_HORIZON),
};

/** Server-side loader of the horizon from a page's `searchParams`. */
export const loadForecastHorizon = createLoader(forecastHorizonParsers);
