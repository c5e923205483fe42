/**
 * The model ladder of the statistical remainder (docs/forecast.md#the-model-ladder). Every model maps a daily
 * history `y` (amounts as numbers, one per day, `y[0]` on day number `start`) to `h` daily point forecasts.
 * Estimates only: callers round them to cents when they become flows.
 */
import { addMonths, ymd } from "./days";

/** Names of the models, in ladder order (simplest first). */
export const MODELS = ["seasonal_naive", "last_week", "last_month", "holt_winters"] as const;
export type ModelName = (typeof MODELS)[number];

/** The baseline every other model must beat (docs/forecast.md#the-model-ladder). */
export const BASELINE: ModelName = "seasonal_naive";

/** Weeks the seasonal-naive baseline averages per weekday. */
export const BASELINE_WEEKS = 13;

/**
 * Seasonal naive (weekday): each future day is the mean of the same weekday over the last 13 weeks (fewer when
 * the history is shorter). This is the dashboard's old method and the baseline of the ladder.
 */
export function seasonalNaive(y: readonly number[], h: number): number[] {
  const n = y.length;
  const means: number[] = [];
  for (let k = 0; k < 7; k++) {
    let s = 0;
    let c = 0;
    for (let t = n - 7 + k; t >= 0 && c < BASELINE_WEEKS; t -= 7) {
      s += y[t] ?? 0;
      c++;
    }
    means.push(c ? s / c : 0);
  }
  const out = new Array<number>(h);
  for (let i = 0; i < h; i++) out[i] = means[i % 7] ?? 0;
  return out;
}

/** Repeats the last 7 days. */
export function lastWeek(y: readonly number[], h: number): number[] {
  const n = y.length;
  const out = new Array<number>(h);
  for (let i = 0; i < h; i++) out[i] = n >= 7 ? (y[n - 7 + (i % 7)] ?? 0) : 0;
  return out;
}

/**
 * Seasonal naive (day of month): each future day repeats the same day of month of the last month in the history
 * (31st → last day of a shorter month; days a shorter month lacks get 0).
 * @param start day number of `y[0]`.
 */
export function lastMonth(y: readonly number[], h: number, start: number): number[] {
  const n = y.length;
  const out = new Array<number>(h);
  for (let i = 0; i < h; i++) {
    const day = start + n + i;
    let back = 1;
    let src = addMonths(day, -back);
    while (src >= start + n) src = addMonths(day, -++back);
    // A clamped source (31 Mar → 28 Feb) would count the 28th twice; only the true day of month repeats.
    const idx = src - start;
    out[i] = idx >= 0 && ymd(src).d === ymd(day).d ? (y[idx] ?? 0) : 0;
  }
  return out;
}

/** Holt-Winters smoothing parameters. */
export interface HwParams {
  alpha: number;
  beta: number;
  gamma: number;
  phi: number;
}

const GRID: HwParams[] = [];
for (const alpha of [0.05, 0.2, 0.5])
  for (const beta of [0.01, 0.1])
    for (const gamma of [0.05, 0.2]) for (const phi of [0.9, 0.98, 1]) GRID.push({ alpha, beta, gamma, phi });

/** Training days Holt-Winters looks at (the last 52 weeks). */
const HW_WINDOW = 364;

function hwRun(y: readonly number[], from: number, p: HwParams, h: number, out: number[] | null): number {
  const m = 7;
  let l0 = 0;
  let l1 = 0;
  for (let i = 0; i < m; i++) {
    l0 += y[from + i] ?? 0;
    l1 += y[from + m + i] ?? 0;
  }
  l0 /= m;
  l1 /= m;
  let level = l0;
  let trend = (l1 - l0) / m;
  const season = new Array<number>(m);
  for (let i = 0; i < m; i++) season[i] = (y[from + i] ?? 0) - l0;
  let sse = 0;
  const { alpha, beta, gamma, phi } = p;
  // The same arithmetic in the same order as the textbook loop (so the same doubles), with the season index kept
  // as a counter instead of a modulo and each y read once.
  const n = y.length;
  let j = 0;
  for (let t = from + m; t < n; t++) {
    const yt = y[t] ?? 0;
    const s = season[j] ?? 0;
    const fit = level + phi * trend + s;
    const e = yt - fit;
    sse += e * e;
    const prev = level;
    level = alpha * (yt - s) + (1 - alpha) * (prev + phi * trend);
    trend = beta * (level - prev) + (1 - beta) * phi * trend;
    season[j] = gamma * (yt - level) + (1 - gamma) * s;
    if (++j === m) j = 0;
  }
  if (out) {
    let damp = 0;
    let pw = 1;
    for (let i = 0; i < h; i++) {
      pw *= phi;
      damp += pw;
      out[i] = level + damp * trend + (season[(y.length - from + i) % m] ?? 0);
    }
  }
  return sse;
}

/**
 * The grid's choice for a series, kept with the exact window it was chosen on: a recompute on the same history (a
 * forecast write, a `refresh`) takes it instead of searching the grid again — the same window gives the same choice,
 * so the forecast is the same; a window that differs in any day is searched again.
 */
export interface HwFitMemo {
  fits: Map<string, { y: Float64Array; p: HwParams }>;
  /** The series (lib/forecast/engine.ts `seriesKey`). */
  key: string;
}

/** Most kept choices (one per series; 4,000 series of a 50-company group hold about 12 MB). */
const MAX_FITS = 50_000;

function sameWindow(held: Float64Array, y: readonly number[], from: number): boolean {
  if (held.length !== y.length - from) return false;
  for (let i = 0; i < held.length; i++) if (held[i] !== y[from + i]) return false;
  return true;
}

/**
 * Additive Holt-Winters with a damped trend and a weekly season, parameters chosen on a small grid by in-sample
 * one-step squared error over the last 52 weeks (or the choice `fit` kept for exactly this window). Falls back to
 * the seasonal naive below 3 weeks of history.
 */
export function holtWinters(y: readonly number[], h: number, fit?: HwFitMemo): number[] {
  const from = Math.max(0, y.length - HW_WINDOW);
  if (y.length - from < 21) return seasonalNaive(y, h);
  const held = fit?.fits.get(fit.key);
  let best: HwParams | undefined = held && sameWindow(held.y, y, from) ? held.p : undefined;
  if (!best) {
    let bestSse = Infinity;
    for (const p of GRID) {
      const sse = hwRun(y, from, p, 0, null);
      if (sse < bestSse) {
        bestSse = sse;
        best = p;
      }
    }
    if (fit && best) {
      if (fit.fits.size >= MAX_FITS) fit.fits.clear();
      fit.fits.set(fit.key, { y: Float64Array.from(y.slice(from)), p: best });
    }
  }
  const out = new Array<number>(h);
  if (best) hwRun(y, from, best, h, out);
  return out;
}

/** Runs model `name` on `y` (day number `start` = `y[0]`) for `h` days; `fit` keeps Holt-Winters' grid choice. */
export function runModel(name: ModelName, y: readonly number[], h: number, start: number, fit?: HwFitMemo): number[] {
  switch (name) {
    case "seasonal_naive":
      return seasonalNaive(y, h);
    case "last_week":
      return lastWeek(y, h);
    case "last_month":
      return lastMonth(y, h, start);
    case "holt_winters":
      return holtWinters(y, h, fit);
  }
}
