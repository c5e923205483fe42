/**
 * A group report's lines converted to one reporting currency, and what the conversion left out: the step the group
 * cashflow / positions / forecast report (group-reports.ts) and the group cashflow by category
 * (group-categories.ts) share.
 *
 * Pure: the rates come in as a loader, so it is tested without a server.
 */
import Decimal from "decimal.js";
import type { FxRates } from "../fx/convert";
import { isoMinorUnits } from "../fx/currencies";

/** How one line was converted (the fields every exported group line carries). */
export interface LineConversion<F> {
  /** The figures in the reporting currency (the keys of `original`); null when the line could not be converted. */
  converted: F | null;
  /** 1 `currency` = `rate` reporting currency (10 significant digits); null when unconverted. */
  rate: string | null;
  /** The date of the rate used (the oldest leg); null when unconverted. */
  rateDate: string | null;
  /** True when a rate older than the line's conversion date was used. */
  staleRate: boolean;
  /** Why the line was not converted, or null. */
  unconvertedReason: "no_rate" | "rate_too_old" | null;
}

/** The lines converted, in the order given, and a summary of the conversion. */
export interface ConvertedLines<L> {
  lines: L[];
  /** Lines that could not be converted, per original currency, by currency code. */
  unconverted: { currency: string; lines: number }[];
  /** Oldest rate date used by a converted line in another currency than the reporting one; null when none. */
  oldestRateDate: string | null;
  /** Converted lines that used an earlier day's rate. */
  staleRateLines: number;
}

/**
 * Converts each line's figures to `reportingCurrency` with lib/fx/convert.ts, after one `loadRates` call for every
 * currency of the lines (and the reporting one) over the range of their conversion dates (none when there is no
 * line).
 *
 * - `lines`: each with its `currency` and `original` figures (decimal strings in that currency, keyed by name).
 * - `dateOf(line)`: the date `YYYY-MM-DD` whose rate converts the line (its own date, or e.g. today for a forecast).
 *
 * Each figure is converted on its own, rounded half to even to the reporting currency's minor units; a figure named
 * `net` is not converted but is converted `inflow` − converted `outflow`, so the line adds up in the reporting
 * currency. A line without a usable rate (none at its date, or only one over 7 days older) keeps `converted: null`
 * with the reason; it is never dropped.
 * @throws RangeError when `reportingCurrency` is not a currency code; FxInputError (lib/fx/convert.ts) for a
 *   malformed figure, currency or date of a line; a failing `loadRates` rejects.
 */
export async function convertLines<L extends { currency: string; original: { [K in keyof L["original"]]: string } }>(
  lines: readonly L[],
  opts: {
    reportingCurrency: string;
    dateOf(line: L): string;
    loadRates(q: { currencies: string[]; from: string; to: string }): Promise<FxRates>;
  },
): Promise<ConvertedLines<L & LineConversion<L["original"]>>> {
  const { reportingCurrency, dateOf } = opts;
  const dp = isoMinorUnits(reportingCurrency);
  const dates = lines.map(dateOf).sort();
  const from = dates[0];
  const to = dates[dates.length - 1];
  if (from === undefined || to === undefined)
    return { lines: [], unconverted: [], oldestRateDate: null, staleRateLines: 0 };
  const rates = await opts.loadRates({
    currencies: [...new Set([...lines.map((l) => l.currency), reportingCurrency])],
    from,
    to,
  });

  const converted = lines.map((line): L & LineConversion<L["original"]> => {
    const date = dateOf(line);
    // Converting 1 unit gives the rate and its date once per line; each figure is then converted on its own.
    const unit = rates.convert("1", line.currency, reportingCurrency, date);
    if (unit.status === "unconverted")
      return { ...line, converted: null, rate: null, rateDate: null, staleRate: false, unconvertedReason: unit.reason };
    const original: Record<string, string> = line.original;
    const figures: Record<string, string> = {};
    for (const [name, amount] of Object.entries(original)) {
      if (name === "net") continue;
      const c = rates.convert(amount, line.currency, reportingCurrency, date);
      figures[name] = c.status === "converted" ? c.value : "0";
    }
    if ("net" in original) figures.net = new Decimal(figures.inflow ?? "0").minus(figures.outflow ?? "0").toFixed(dp);
    return {
      ...line,
      converted: figures as L["original"],
      rate: unit.rate,
      rateDate: unit.rateDate,
      staleRate: unit.stale,
      unconvertedReason: null,
    };
  });

  const unconverted = new Map<string, number>();
  let oldest: string | null = null;
  let stale = 0;
  for (const l of converted) {
    if (!l.converted) unconverted.set(l.currency, (unconverted.get(l.currency) ?? 0) + 1);
    else {
      if (l.staleRate) stale++;
      if (l.currency !== reportingCurrency && l.rateDate && (oldest === null || l.rateDate < oldest))
        oldest = l.rateDate;
    }
  }
  return {
    lines: converted,
    unconverted: [...unconverted].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, n]) => ({ currency, lines: n })),
    oldestRateDate: oldest,
    staleRateLines: stale,
  };
}
