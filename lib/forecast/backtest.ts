/**
 * Rolling-origin backtest and model choice per series (docs/forecast.md#backtest-and-accuracy): up to 12 origins
 * one week apart, each forecasting the next 13 weeks from the history before it; errors are measured on weekly
 * totals. WAPE = Σ|actual − forecast| / Σ|actual|; MASE divides the mean absolute error by the in-sample mean
 * absolute error of the one-week-ago naive on weekly totals. A model other than the baseline is chosen only when
 * its WAPE is at least 5 % lower than the baseline's.
 */
import { BASELINE, MODELS, runModel, type ModelName } from "./models";

/** Backtest settings. */
export interface BacktestOptions {
  /** Most origins (default 12). */
  origins?: number;
  /** Weeks forecast from each origin (default 13). */
  weeks?: number;
  /** Fewest training days before the first origin (default 56). */
  minTrain?: number;
  /** Models tried (default: the whole ladder). */
  models?: readonly ModelName[];
}

/** Error sums of one model, per horizon week (index 0 = week 1). */
export interface ModelErrors {
  /** Σ|actual − forecast| per horizon week. */
  absErr: number[];
  /** Σ|actual| per horizon week. */
  absActual: number[];
  /** actual − forecast of every origin, per horizon week (for the P10/P90 band). */
  errors: number[][];
  /** WAPE over all weeks (0.14 = 14 %); null when the actuals are all 0. */
  wape: number | null;
  /** MASE over all weeks; null when the scale is 0. */
  mase: number | null;
}

/** The backtest of one series. */
export interface BacktestResult {
  origins: number;
  weeks: number;
  chosen: ModelName;
  models: Partial<Record<ModelName, ModelErrors>>;
}

/** The improvement a model needs over the baseline's WAPE to be chosen (5 %). */
export const MIN_GAIN = 0.05;

function weekSums(v: readonly number[], from: number, weeks: number): number[] {
  const out = new Array<number>(weeks).fill(0);
  for (let w = 0; w < weeks; w++) for (let d = 0; d < 7; d++) out[w] = (out[w] ?? 0) + (v[from + w * 7 + d] ?? 0);
  return out;
}

/** Mean |W_t − W_{t−1}| over the complete weeks of `y[0..end)`: the MASE scale. */
function naiveScale(y: readonly number[], end: number): number {
  const weeks = Math.floor(end / 7);
  if (weeks < 2) return 0;
  const sums = weekSums(y, end - weeks * 7, weeks);
  let s = 0;
  for (let i = 1; i < weeks; i++) s += Math.abs((sums[i] ?? 0) - (sums[i - 1] ?? 0));
  return s / (weeks - 1);
}

/**
 * Backtests the ladder on a daily series and picks a model.
 * @param y daily amounts, `y[0]` on day number `start`.
 * @returns origins used (0 when the history is too short: the baseline is chosen), per-model errors, the choice.
 */
export function backtest(y: readonly number[], start: number, opts: BacktestOptions = {}): BacktestResult {
  const weeks = opts.weeks ?? 13;
  const h = weeks * 7;
  const minTrain = opts.minTrain ?? 56;
  const models = opts.models ?? MODELS;
  const possible = Math.max(0, Math.floor((y.length - h - minTrain) / 7) + 1);
  const origins = Math.min(opts.origins ?? 12, possible);
  const result: BacktestResult = { origins, weeks, chosen: BASELINE, models: {} };
  if (origins === 0) return result;
  const scale = naiveScale(y, y.length - h);
  for (const name of models) {
    const e: ModelErrors = {
      absErr: new Array<number>(weeks).fill(0),
      absActual: new Array<number>(weeks).fill(0),
      errors: Array.from({ length: weeks }, () => []),
      wape: null,
      mase: null,
    };
    for (let k = 0; k < origins; k++) {
      const origin = y.length - h - k * 7;
      const train = y.slice(0, origin);
      const f = runModel(name, train, h, start);
      const fw = weekSums(f, 0, weeks);
      const aw = weekSums(y, origin, weeks);
      for (let w = 0; w < weeks; w++) {
        const err = (aw[w] ?? 0) - (fw[w] ?? 0);
        e.absErr[w] = (e.absErr[w] ?? 0) + Math.abs(err);
        e.absActual[w] = (e.absActual[w] ?? 0) + Math.abs(aw[w] ?? 0);
        e.errors[w]?.push(err);
      }
    }
    const sumErr = e.absErr.reduce((a, b) => a + b, 0);
    const sumAct = e.absActual.reduce((a, b) => a + b, 0);
    e.wape = sumAct > 0 ? sumErr / sumAct : null;
    e.mase = scale > 0 ? sumErr / (origins * weeks) / scale : null;
    result.models[name] = e;
  }
  const base = result.models[BASELINE]?.wape;
  let best: ModelName = BASELINE;
  let bestWape = base ?? Infinity;
  for (const name of models) {
    const w = result.models[name]?.wape;
    if (w == null || name === BASELINE) continue;
    if (w < bestWape && (base == null || w <= base * (1 - MIN_GAIN))) {
      best = name;
      bestWape = w;
    }
  }
  result.chosen = best;
  return result;
}

/** The `q` quantile (0–1) of `v` by linear interpolation; 0 for an empty list. */
export function quantile(v: readonly number[], q: number): number {
  return quantileOfSorted(
    [...v].sort((a, b) => a - b),
    q,
  );
}

/** {@link quantile} of a list already sorted ascending (sort once, take several quantiles; docs/forecast.md#backtest-and-accuracy). */
export function quantileOfSorted(s: ArrayLike<number>, q: number): number {
  if (s.length === 0) return 0;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (s[lo] ?? 0) + ((s[hi] ?? 0) - (s[lo] ?? 0)) * (pos - lo);
}
