/**
 * The accuracy section in plain words (docs/forecast.md#backtest-and-accuracy): the backtest errors of each
 * series' chosen model and of the seasonal-naive baseline, summed over a group of series (a category, a company,
 * everything) and per horizon week, then said as a sentence: "Last 12 weeks: WAPE 14 % on payroll, 38 % better
 * than the same-weekday average." Errors in different currencies are weighted by their rate to the reporting
 * currency before they are summed (a statistic, not money).
 */
import type { BacktestResult } from "./backtest";
import { BASELINE, type ModelName } from "./models";

/** The accuracy of a group of series. */
export interface Accuracy {
  /** What the group is: a category, a company id, or "all". */
  group: string;
  series: number;
  /** Most origins of any series in the group (the weeks of history the figure rests on). */
  origins: number;
  /** WAPE of the chosen models (0.14 = 14 %), null without actuals. */
  wape: number | null;
  /** WAPE of the seasonal-naive baseline on the same weeks. */
  baseline_wape: number | null;
  /** 1 − wape / baseline_wape (0.38 = 38 % better), null when either is missing. */
  gain: number | null;
  /** WAPE per horizon week (index 0 = week 1). */
  by_week: (number | null)[];
  /** How many series use each model. */
  models: Partial<Record<ModelName, number>>;
  /** The sentence the page shows. */
  summary: string;
}

/** One series for `accuracy`: its key parts, its backtest, and the weight of its currency. */
export interface SeriesBacktest {
  company: string;
  currency: string;
  category: string;
  backtest: BacktestResult;
}

const pct = (x: number) => `${Math.round(x * 100)} %`;

/**
 * Accuracy per group: `by` picks the group of a series (its category, its company, or "all").
 * @param weights reporting-currency weight per currency (its rate as a number); 1 when missing.
 * @returns groups sorted by name.
 */
export function accuracy(
  series: readonly SeriesBacktest[],
  by: "category" | "company" | "all",
  weights: Readonly<Record<string, number>> = {},
): Accuracy[] {
  type Acc = { n: number; origins: number; err: number[]; act: number[]; base: number[]; models: Accuracy["models"] };
  const groups = new Map<string, Acc>();
  for (const s of series) {
    const bt = s.backtest;
    const chosen = bt.models[bt.chosen];
    const base = bt.models[BASELINE];
    const key = by === "all" ? "all" : s[by];
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { n: 0, origins: 0, err: [], act: [], base: [], models: {} }));
    g.n++;
    g.models[bt.chosen] = (g.models[bt.chosen] ?? 0) + 1;
    if (!chosen || !base || bt.origins === 0) continue;
    g.origins = Math.max(g.origins, bt.origins);
    const w = weights[s.currency] ?? 1;
    chosen.absErr.forEach((e, i) => {
      g.err[i] = (g.err[i] ?? 0) + e * w;
      g.act[i] = (g.act[i] ?? 0) + (chosen.absActual[i] ?? 0) * w;
      g.base[i] = (g.base[i] ?? 0) + (base.absErr[i] ?? 0) * w;
    });
  }
  const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([group, g]) => {
      const act = sum(g.act);
      const wape = act > 0 ? sum(g.err) / act : null;
      const baseline = act > 0 ? sum(g.base) / act : null;
      const gain = wape !== null && baseline ? 1 - wape / baseline : null;
      const on = group === "all" ? "all flows" : group;
      let summary: string;
      if (wape === null) summary = `Not enough history to measure ${on} yet.`;
      else {
        const than =
          gain === null || Math.abs(gain) < 0.005
            ? "as good as the same-weekday average"
            : gain > 0
              ? `${pct(gain)} better than the same-weekday average`
              : `${pct(-gain)} worse than the same-weekday average`;
        summary = `Last ${g.origins} weeks: WAPE ${pct(wape)} on ${on}, ${than}.`;
      }
      return {
        group,
        series: g.n,
        origins: g.origins,
        wape,
        baseline_wape: baseline,
        gain,
        by_week: g.err.map((e, i) => ((g.act[i] ?? 0) > 0 ? e / (g.act[i] ?? 1) : null)),
        models: g.models,
        summary,
      };
    });
}

/** The groups whose WAPE is above `limit` (default 50 %) or that do worse than the baseline: "where it is weak". */
export function weakSpots(groups: readonly Accuracy[], limit = 0.5): Accuracy[] {
  return groups.filter((g) => (g.wape !== null && g.wape > limit) || (g.gain !== null && g.gain < 0));
}
